package rewriteassist.runner.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rewriteassist.runner.run.RecipeRunner;

/**
 * A {@code learn_templates} request: the hunks of a pull request in Java files, the head text of
 * the files they edit, and where the learned templates' source and recipe jar go.
 *
 * @param edits one per hunk, in the request's order
 * @param headFiles the head text of each edited file, by path (for the after side's imports)
 * @param libraries jars to compile against besides the edited files' source-set classpath
 * @param packageName the package of the one generated source file
 * @param className its class, which holds every template as a static nested class
 * @param minOccurrences how many pairs a shape needs to become a template
 * @param gradleRecipes whether the jar also carries the Gradle recipes ({@code
 *     rewriteassist.learned.gradle}) that learned Gradle steps name; then a jar is written even
 *     when no template is learned
 */
public record LearnTemplatesRequest(
        String id,
        Path output,
        List<Edit> edits,
        Map<String, String> headFiles,
        List<TemplateRequest.Library> libraries,
        String packageName,
        String className,
        Path directory,
        TemplateRequest.Coordinates coordinates,
        int minOccurrences,
        boolean gradleRecipes)
        implements Request {
    static final String TYPE = "learn_templates";

    /**
     * One hunk: the base lines {@code beforeStart..beforeEnd} (1-based, inclusive; {@code beforeEnd
     * = beforeStart - 1} for a pure insertion) of {@code path} that the PR replaced with {@code after}.
     */
    public record Edit(String path, int beforeStart, int beforeEnd, String after) {
        /** Whether a base line is one the PR replaced. */
        public boolean covers(int line) {
            return beforeStart <= line && line <= beforeEnd;
        }
    }

    @Override
    public String type() {
        return TYPE;
    }

    static LearnTemplatesRequest from(JsonNode json, String id, Path output, Requests.Rejecter rejecter)
            throws BadRequest {
        try {
            return read(json, id, output);
        } catch (IllegalArgumentException e) {
            throw rejecter.reject(e.getMessage(), id, output);
        }
    }

    private static LearnTemplatesRequest read(JsonNode json, String id, Path output) {
        if (!json.path("edits").isArray()) {
            throw new IllegalArgumentException("`edits` is not a list");
        }
        List<Edit> edits = new ArrayList<>();
        for (JsonNode edit : json.path("edits")) {
            String path = edit.path("path").asText("");
            if (path.isEmpty()
                    || !RecipeRunner.inside(Paths.get(path))
                    || !edit.path("before_start").canConvertToInt()
                    || !edit.path("before_end").canConvertToInt()
                    || !edit.path("after").isTextual()) {
                throw new IllegalArgumentException(
                        "an edit needs a relative `path`, `before_start`, `before_end` and an `after` text");
            }
            edits.add(new Edit(
                    path,
                    edit.path("before_start").asInt(),
                    edit.path("before_end").asInt(),
                    edit.path("after").asText()));
        }
        Map<String, String> headFiles = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> file : json.path("head_files").properties()) {
            if (!file.getValue().isTextual()) {
                throw new IllegalArgumentException("head file `" + file.getKey() + "` has no text");
            }
            headFiles.put(file.getKey(), file.getValue().asText());
        }
        List<TemplateRequest.Library> libraries = new ArrayList<>();
        for (JsonNode library : json.path("libraries")) {
            if (!library.path("jar").isTextual()) {
                throw new IllegalArgumentException("a library has no `jar`");
            }
            libraries.add(new TemplateRequest.Library(
                    Paths.get(library.path("jar").asText()),
                    library.path("coordinates").isTextual()
                            ? TemplateRequest.Coordinates.parse(
                                    library.path("coordinates").asText())
                            : null));
        }
        String packageName = json.path("package").asText("");
        String className = json.path("class").asText("");
        if (!javaName(packageName) || !javaName(className) || className.contains(".")) {
            throw new IllegalArgumentException("`package` and `class` must be Java names");
        }
        if (json.path("directory").asText("").isEmpty()) {
            throw new IllegalArgumentException("`directory` is missing");
        }
        int minOccurrences = json.path("min_occurrences").asInt(2);
        if (!json.path("gradle_recipes").isMissingNode()
                && !json.path("gradle_recipes").isBoolean()) {
            throw new IllegalArgumentException("`gradle_recipes` is not true or false");
        }
        if (minOccurrences < 1) {
            throw new IllegalArgumentException("`min_occurrences` must be at least 1");
        }
        return new LearnTemplatesRequest(
                id,
                output,
                List.copyOf(edits),
                java.util.Collections.unmodifiableMap(headFiles),
                List.copyOf(libraries),
                packageName,
                className,
                Paths.get(json.path("directory").asText()),
                TemplateRequest.Coordinates.parse(json.path("coordinates").asText("")),
                minOccurrences,
                json.path("gradle_recipes").asBoolean(false));
    }

    /** A dotted Java name: the generated file's package and class are written into its source. */
    private static boolean javaName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (String part : name.split("\\.", -1)) {
            if (part.isEmpty()
                    || !Character.isJavaIdentifierStart(part.charAt(0))
                    || !part.chars().allMatch(Character::isJavaIdentifierPart)
                    || javax.lang.model.SourceVersion.isKeyword(part)) {
                return false;
            }
        }
        return true;
    }
}
