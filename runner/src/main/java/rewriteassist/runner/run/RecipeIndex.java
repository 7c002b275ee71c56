package rewriteassist.runner.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.common.AtomicFiles;
import rewriteassist.runner.common.Jackson;
import rewriteassist.runner.common.Log;

/**
 * Which YAML file of the runner's classpath defines each declarative recipe: the descriptor the
 * runner needs to load a recipe by its name without reading every recipe file of the classpath
 * (about a hundred jars' worth, seconds of CPU in every runner). Kept on disk next to the built
 * runner, with the size and time of every classpath entry it was read from: a runner whose
 * classpath differs in any of them reads the files again and writes a new index.
 *
 * <p>A name several files define is the last file's, in classpath order, as when OpenRewrite's
 * {@code ClasspathScanningLoader} reads them all (each file's recipes replace the earlier ones).
 */
final class RecipeIndex {
    /** The recipe document type, as OpenRewrite writes it. */
    private static final String RECIPE_TYPE = "specs.openrewrite.org/v1beta/recipe";

    /** Bumped when the file's meaning changes. */
    private static final int FORMAT = 1;

    /** The YAML file (its URI, as {@code ClasspathScanningLoader} names it) of each recipe name. */
    private final Map<String, URI> files;

    /** What the index was read from: each classpath entry's path, size and modification time. */
    private final List<String> entries;

    private RecipeIndex(Map<String, URI> files, List<String> entries) {
        this.files = files;
        this.entries = entries;
    }

    /** The file that defines {@code name}, or null when no YAML file of the classpath does. */
    @Nullable
    URI file(String name) {
        return files.get(name);
    }

    /** How many recipes it names. */
    int size() {
        return files.size();
    }

    /** The recipe files, in classpath order, each once. */
    List<URI> allFiles() {
        return new ArrayList<>(new LinkedHashSet<>(files.values()));
    }

    /** How many recipe files define them. */
    int files() {
        return new HashSet<>(files.values()).size();
    }

    /** The entries of the runner's classpath, in order (as {@code ClasspathScanningLoader} lists them). */
    static List<Path> classpath() {
        List<Path> paths = new ArrayList<>();
        String classpath = System.getProperty("java.class.path", "");
        for (String entry : classpath.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                paths.add(Paths.get(entry));
            }
        }
        return paths;
    }

    /**
     * The index of {@code classpath}: the one kept in {@code file} when it was read from the same
     * entries, else read from the recipe files and kept there (null: not kept).
     */
    static RecipeIndex of(List<Path> classpath, @Nullable Path file) {
        List<String> entries = describe(classpath);
        if (file != null) {
            RecipeIndex kept = read(file, entries);
            if (kept != null) {
                return kept;
            }
        }
        long started = System.nanoTime();
        RecipeIndex index = new RecipeIndex(read(classpath), entries);
        Log.log("recipes: indexed " + index.size() + " YAML recipes of the classpath in " + Log.seconds(started)
                + " s");
        if (file != null) {
            index.write(file);
        }
        return index;
    }

    /** Each entry as {@code path size modified}; a missing entry as its path alone. */
    private static List<String> describe(List<Path> classpath) {
        List<String> out = new ArrayList<>();
        for (Path entry : classpath) {
            try {
                out.add(entry + " " + Files.size(entry) + " "
                        + Files.getLastModifiedTime(entry).toMillis());
            } catch (IOException e) {
                out.add(entry.toString());
            }
        }
        return out;
    }

    private static @Nullable RecipeIndex read(Path file, List<String> entries) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try {
            JsonNode json = Jackson.MAPPER.readTree(file.toFile());
            List<String> kept = new ArrayList<>();
            json.path("entries").forEach(e -> kept.add(e.asText()));
            if (json.path("format").asInt() != FORMAT || !kept.equals(entries)) {
                return null;
            }
            Map<String, URI> files = new LinkedHashMap<>();
            json.path("recipes")
                    .properties()
                    .forEach(e -> files.put(e.getKey(), URI.create(e.getValue().asText())));
            return new RecipeIndex(files, entries);
        } catch (IOException | RuntimeException e) {
            Log.log("recipes: the index " + file + " is not readable, reading the recipe files: " + Log.oneLine(e));
            return null;
        }
    }

    private void write(Path file) {
        ObjectNode json = Jackson.MAPPER.createObjectNode();
        json.put("format", FORMAT);
        entries.forEach(json.putArray("entries")::add);
        ObjectNode recipes = json.putObject("recipes");
        files.forEach((name, uri) -> recipes.put(name, uri.toString()));
        try {
            AtomicFiles.write(file, Jackson.MAPPER.writeValueAsBytes(json));
        } catch (IOException | RuntimeException e) {
            Log.log("recipes: cannot keep the index in " + file + ": " + Log.oneLine(e));
        }
    }

    /** The recipe names of every YAML file of {@code classpath}, in order; the last file wins. */
    private static Map<String, URI> read(List<Path> classpath) {
        Map<String, URI> files = new LinkedHashMap<>();
        for (Path entry : classpath) {
            if (Files.isDirectory(entry)) {
                Path dir = entry.resolve("META-INF/rewrite");
                if (!Files.isDirectory(dir)) {
                    continue;
                }
                try (Stream<Path> walk = Files.walk(dir)) {
                    for (Path yaml : walk.filter(Files::isRegularFile)
                            .filter(p -> isYaml(p.getFileName().toString()))
                            .toList()) {
                        names(Files.readString(yaml), yaml.toUri(), files);
                    }
                } catch (IOException | RuntimeException e) {
                    Log.log("recipes: cannot index " + dir + ": " + Log.oneLine(e));
                }
            } else if (Files.isRegularFile(entry)) {
                try (JarFile jar = new JarFile(entry.toFile())) {
                    Enumeration<JarEntry> all = jar.entries();
                    while (all.hasMoreElements()) {
                        JarEntry yaml = all.nextElement();
                        String name = yaml.getName();
                        if (name.startsWith("META-INF/rewrite/") && !yaml.isDirectory() && isYaml(name)) {
                            try (InputStream in = jar.getInputStream(yaml)) {
                                URI uri = URI.create("jar:" + entry.toUri() + "!/" + name);
                                names(new String(in.readAllBytes(), StandardCharsets.UTF_8), uri, files);
                            }
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    Log.log("recipes: cannot index " + entry + ": " + Log.oneLine(e));
                }
            }
        }
        return files;
    }

    private static boolean isYaml(String name) {
        return name.endsWith(".yml") || name.endsWith(".yaml");
    }

    /** Notes {@code uri} as the file of each recipe its documents define. */
    private static void names(String text, URI uri, Map<String, URI> files) {
        List<Object> documents;
        try {
            documents = RecipeRunner.SnakeYaml.loadAll(text);
        } catch (RuntimeException e) {
            return; // OpenRewrite's own read of the file fails too, and names nothing
        }
        for (Object document : documents) {
            if (document instanceof Map<?, ?> map
                    && RECIPE_TYPE.equals(map.get("type"))
                    && map.get("name") instanceof String name) {
                files.remove(name);
                files.put(name, uri);
            }
        }
    }
}
