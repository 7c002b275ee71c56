package rewriteassist.runner.template;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import rewriteassist.runner.common.AtomicFiles;
import rewriteassist.runner.protocol.TemplateRequest;

/**
 * The recipe jar of compiled templates and its POM, named {@code artifact-version.jar} / {@code
 * .pom} in the request's directory, each written to a temporary name and renamed. The jar holds the
 * classes, the template sources and the sources rewrite-templating generated, so a reviewer of the
 * jar reads what it does. The POM declares the libraries the templates use: the generated recipes
 * parse their templates against the classpath of the class loader that runs them, which for
 * rewrite-maven-plugin is the recipe artifact's own dependencies; without them every template
 * silently matches nothing.
 */
final class RecipeJar {
    private RecipeJar() {}

    /** Writes the jar: every file under {@code classes}, the sources, and what is under {@code generated}. */
    static Path write(
            Path directory,
            TemplateRequest.Coordinates coordinates,
            Path classes,
            Map<String, String> sources,
            Path generated)
            throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        Path jar = directory.resolve(coordinates.fileName("jar"));
        Path partial = temporary(jar);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(partial), manifest)) {
            addTree(out, classes);
            for (Map.Entry<String, String> source : sources.entrySet()) {
                add(out, source.getKey(), source.getValue().getBytes(StandardCharsets.UTF_8));
            }
            addTree(out, generated);
        }
        AtomicFiles.rename(partial, jar);
        return jar;
    }

    /** Adds {@code entries} to {@code jar} (an entry of the same name is replaced), written anew and renamed. */
    static void add(Path jar, Map<String, byte[]> entries) throws IOException {
        Map<String, byte[]> all = new LinkedHashMap<>();
        Manifest manifest;
        try (JarFile existing = new JarFile(jar.toFile())) {
            manifest = existing.getManifest();
            for (Enumeration<JarEntry> it = existing.entries(); it.hasMoreElements(); ) {
                JarEntry entry = it.nextElement();
                if (!entry.isDirectory() && !entry.getName().equals(JarFile.MANIFEST_NAME)) {
                    try (InputStream in = existing.getInputStream(entry)) {
                        all.put(entry.getName(), in.readAllBytes());
                    }
                }
            }
        }
        all.putAll(entries);
        Path partial = temporary(jar);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(partial), manifest)) {
            for (Map.Entry<String, byte[]> entry : all.entrySet()) {
                add(out, entry.getKey(), entry.getValue());
            }
        }
        AtomicFiles.rename(partial, jar);
    }

    /** Declares {@code dependency} in a POM {@link #writePom} wrote, unless it already does. */
    static Path addDependency(Path pom, TemplateRequest.Coordinates dependency) throws IOException {
        String text = Files.readString(pom);
        String declared = coordinatesXml(dependency, "      ");
        if (text.contains(declared)) {
            return pom;
        }
        String end = "  </dependencies>\n";
        int at = text.lastIndexOf(end);
        if (at < 0) {
            throw new IOException(pom + " has no dependencies section to add " + dependency.artifact() + " to");
        }
        String changed =
                text.substring(0, at) + "    <dependency>\n" + declared + "    </dependency>\n" + text.substring(at);
        Path partial = temporary(pom);
        Files.writeString(partial, changed);
        AtomicFiles.rename(partial, pom);
        return pom;
    }

    /** Writes the POM: the coordinates, and rewrite-templating and the libraries as dependencies. */
    static Path writePom(
            Path directory, TemplateRequest.Coordinates coordinates, List<TemplateRequest.Coordinates> needs)
            throws IOException {
        StringBuilder pom = new StringBuilder(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                """);
        pom.append(coordinatesXml(coordinates, "  "));
        pom.append("  <description>OpenRewrite recipes rewrite-assist learned from a pull request: Refaster")
                .append(" templates compiled into recipes, and the Gradle recipes its steps name.</description>\n");
        pom.append("  <dependencies>\n");
        for (TemplateRequest.Coordinates dependency : needs) {
            pom.append("    <dependency>\n")
                    .append(coordinatesXml(dependency, "      "))
                    .append("    </dependency>\n");
        }
        pom.append("  </dependencies>\n</project>\n");
        Path file = directory.resolve(coordinates.fileName("pom"));
        Path partial = temporary(file);
        Files.writeString(partial, pom);
        AtomicFiles.rename(partial, file);
        return file;
    }

    private static String coordinatesXml(TemplateRequest.Coordinates coordinates, String indent) {
        return indent + "<groupId>" + xml(coordinates.group()) + "</groupId>\n"
                + indent + "<artifactId>" + xml(coordinates.artifact()) + "</artifactId>\n"
                + indent + "<version>" + xml(coordinates.version()) + "</version>\n";
    }

    /** Ids are plain, but a version may hold {@code &} or {@code '}. */
    private static String xml(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("'", "&apos;")
                .replace("\"", "&quot;");
    }

    private static Path temporary(Path file) {
        return file.resolveSibling(
                file.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    }

    private static void addTree(JarOutputStream out, Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return;
        }
        List<Path> files = new ArrayList<>();
        try (Stream<Path> all = Files.walk(root)) {
            all.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        for (Path file : files) {
            add(out, root.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
        }
    }

    private static void add(JarOutputStream out, String name, byte[] bytes) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(bytes);
        out.closeEntry();
    }
}
