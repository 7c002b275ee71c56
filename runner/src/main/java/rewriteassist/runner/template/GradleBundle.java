package rewriteassist.runner.template;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import rewriteassist.learned.gradle.ChangeGradlePropertyValue;
import rewriteassist.runner.protocol.TemplateRequest;

/**
 * The Gradle recipes of {@code rewriteassist.learned.gradle} in the learned recipe jar: their classes
 * and sources, taken from the runner's own classpath (the build copies the sources next to the
 * classes), and rewrite-gradle declared in the jar's POM, so the build plugins that load the jar on
 * the next repository find the recipes a learned Gradle step names.
 */
final class GradleBundle {
    private static final String FOLDER =
            ChangeGradlePropertyValue.class.getPackageName().replace('.', '/') + "/";

    private GradleBundle() {}

    /** Adds the recipes to {@code jar} and rewrite-gradle to {@code pom}; both are written when null. */
    static Path[] addTo(
            Path directory, TemplateRequest.Coordinates coordinates, @Nullable String jar, @Nullable String pom)
            throws IOException {
        Files.createDirectories(directory);
        Path jarFile = jar != null
                ? Path.of(jar)
                : RecipeJar.write(
                        directory, coordinates, directory.resolve("none"), Map.of(), directory.resolve("none"));
        RecipeJar.add(jarFile, entries());
        TemplateRequest.Coordinates gradle = rewriteGradle();
        Path pomFile = pom != null
                ? RecipeJar.addDependency(Path.of(pom), gradle)
                : RecipeJar.writePom(directory, coordinates, List.of(gradle));
        return new Path[] {jarFile, pomFile};
    }

    /** rewrite-gradle in the version the runner runs (its manifest says which). */
    private static TemplateRequest.Coordinates rewriteGradle() {
        String version = org.openrewrite.gradle.GradleParser.class.getPackage().getImplementationVersion();
        return new TemplateRequest.Coordinates(
                "org.openrewrite", "rewrite-gradle", version == null ? "8.89.0" : version);
    }

    /** The package's class files and sources, by entry name, from the classes directory or jar that holds them. */
    static Map<String, byte[]> entries() throws IOException {
        Path root;
        try {
            root = Path.of(ChangeGradlePropertyValue.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IOException("where the runner's classes are: " + e.getMessage(), e);
        }
        Map<String, byte[]> entries = new LinkedHashMap<>();
        if (Files.isDirectory(root)) {
            List<Path> files = new ArrayList<>();
            try (Stream<Path> all = Files.list(root.resolve(FOLDER))) {
                all.filter(Files::isRegularFile).sorted().forEach(files::add);
            }
            for (Path file : files) {
                entries.put(FOLDER + file.getFileName(), Files.readAllBytes(file));
            }
        } else {
            try (JarFile jar = new JarFile(root.toFile())) {
                for (Enumeration<JarEntry> all = jar.entries(); all.hasMoreElements(); ) {
                    JarEntry entry = all.nextElement();
                    String name = entry.getName();
                    if (name.startsWith(FOLDER) && !entry.isDirectory() && name.indexOf('/', FOLDER.length()) < 0) {
                        try (InputStream in = jar.getInputStream(entry)) {
                            entries.put(name, in.readAllBytes());
                        }
                    }
                }
            }
        }
        if (entries.keySet().stream().noneMatch(name -> name.endsWith(".java"))) {
            throw new IOException("the runner was built without the sources of " + FOLDER);
        }
        return entries;
    }
}
