package rewriteassist.runner.template;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
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
        pom.append("  <description>OpenRewrite recipes compiled by rewrite-assist from Refaster templates")
                .append(" learned from a pull request.</description>\n");
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
