package rewriteassist.runner.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.net.ArtifactPaths;
import rewriteassist.runner.run.RecipeRunner;

/**
 * What a {@code compile_templates} request asks: the templates' Java sources (a relative path such
 * as {@code org/example/Rules.java} → its text), the libraries they are compiled against beyond the
 * runner's own classpath (each a jar and, when known, its coordinates, which the recipe's POM then
 * declares if the templates use it), the directory to write into, and the recipe jar's coordinates.
 */
public record TemplateRequest(
        Map<String, String> sources, List<Library> libraries, Path directory, Coordinates coordinates) {

    /** A jar the templates may use, and its coordinates (null: unknown, so it cannot be declared). */
    public record Library(Path jar, @Nullable Coordinates coordinates) {}

    /** Maven coordinates, checked as the runner checks every coordinate it turns into a path. */
    public record Coordinates(String group, String artifact, String version) {
        public static Coordinates parse(String text) {
            String[] parts = text.split(":", -1);
            if (parts.length != 3) {
                throw new IllegalArgumentException("`" + text + "` is not group:artifact:version");
            }
            String problem = ArtifactPaths.problem(parts[0], parts[1], parts[2], null, null);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            return new Coordinates(parts[0], parts[1], parts[2]);
        }

        /** The file name of this artifact with the given extension: {@code artifact-version.jar}. */
        public String fileName(String extension) {
            return artifact + "-" + version + "." + extension;
        }
    }

    /** Reads the request's fields; an {@link IllegalArgumentException} says which one is wrong. */
    public static TemplateRequest from(JsonNode json) {
        if (!json.path("sources").isObject() || json.path("sources").isEmpty()) {
            throw new IllegalArgumentException("`sources` is not an object of file name → text");
        }
        Map<String, String> sources = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> source : json.path("sources").properties()) {
            Path name = Paths.get(source.getKey()).normalize();
            if (!source.getKey().endsWith(".java")
                    || !RecipeRunner.inside(name)
                    || !source.getValue().isTextual()) {
                throw new IllegalArgumentException(
                        "source `" + source.getKey() + "` is not a relative .java path with a text");
            }
            sources.put(name.toString(), source.getValue().asText());
        }
        List<Library> libraries = new ArrayList<>();
        for (JsonNode library : json.path("libraries")) {
            if (!library.path("jar").isTextual()) {
                throw new IllegalArgumentException("a library has no `jar`");
            }
            Coordinates coordinates = library.path("coordinates").isTextual()
                    ? Coordinates.parse(library.path("coordinates").asText())
                    : null;
            libraries.add(new Library(Paths.get(library.path("jar").asText()), coordinates));
        }
        if (!json.path("directory").isTextual()
                || json.path("directory").asText().isEmpty()) {
            throw new IllegalArgumentException("`directory` is missing");
        }
        return new TemplateRequest(
                java.util.Collections.unmodifiableMap(sources),
                List.copyOf(libraries),
                Paths.get(json.path("directory").asText()),
                Coordinates.parse(json.path("coordinates").asText("")));
    }
}
