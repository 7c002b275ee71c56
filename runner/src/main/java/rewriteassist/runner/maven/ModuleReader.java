package rewriteassist.runner.maven;

import static org.openrewrite.Tree.randomId;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.openrewrite.SourceFile;
import org.openrewrite.java.marker.JavaProject;
import org.openrewrite.java.marker.JavaVersion;
import org.openrewrite.marker.BuildTool;
import org.openrewrite.marker.Marker;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.maven.tree.ResolvedPom;
import org.openrewrite.xml.tree.Xml;

/**
 * A reactor module read from its resolved POM: coordinates, classpaths, Java levels, charset and the
 * project markers rewrite-maven-plugin puts on its files.
 */
final class ModuleReader {
    private ModuleReader() {}

    /** The directory of a module's POM, relative to the root ("" for the root). */
    static Path directoryOf(SourceFile pom) {
        return pom.getSourcePath().getParent() == null
                ? Path.of("")
                : pom.getSourcePath().getParent();
    }

    /** Modules by directory, deepest first, so a file belongs to the innermost module around it. */
    static Map<Path, Reactor.Module> deepestFirst(Map<Path, Reactor.Module> modules) {
        Map<Path, Reactor.Module> out = new LinkedHashMap<>();
        modules.keySet().stream()
                .sorted(Comparator.comparingInt((Path p) -> p.toString().isEmpty() ? 0 : p.getNameCount())
                        .reversed()
                        .thenComparing(Path::toString))
                .forEach(dir -> out.put(dir, modules.get(dir)));
        return out;
    }

    /** A POM's coordinates and project name: resolved when it could be, else as written. */
    record Coordinates(String group, String artifact, String version, String name) {
        public static Coordinates of(Xml.Document pom) {
            Optional<MavenResolutionResult> resolution = pom.getMarkers().findFirst(MavenResolutionResult.class);
            if (resolution.isPresent()) {
                ResolvedPom resolved = resolution.get().getPom();
                String name = resolved.getRequested().getName() == null
                        ? null
                        : resolved.getValue(resolved.getRequested().getName());
                return new Coordinates(
                        resolved.getGroupId(),
                        resolved.getArtifactId(),
                        resolved.getVersion(),
                        name == null ? resolved.getArtifactId() : name);
            }
            Xml.Tag project = pom.getRoot();
            Optional<Xml.Tag> parent = project.getChild("parent");
            String artifact = project.getChildValue("artifactId").orElse("?");
            return new Coordinates(
                    project.getChildValue("groupId")
                            .orElse(parent.flatMap(p -> p.getChildValue("groupId"))
                                    .orElse("?")),
                    artifact,
                    project.getChildValue("version")
                            .orElse(parent.flatMap(p -> p.getChildValue("version"))
                                    .orElse("?")),
                    project.getChildValue("name").orElse(artifact));
        }

        String ga() {
            return group + ":" + artifact;
        }
    }

    static Reactor.Module module(
            Xml.Document pom, @Nullable MavenResolutionResult classpathOnly, Map<String, Path> reactor, Jars jars) {
        Coordinates coordinates = Coordinates.of(pom);
        MavenResolutionResult own =
                pom.getMarkers().findFirst(MavenResolutionResult.class).orElse(null);
        MavenResolutionResult resolution = own != null ? own : classpathOnly;
        Classpaths classpaths = resolution == null
                ? Classpaths.unresolved(declaredDependencies(pom))
                : Classpaths.of(resolution, reactor, jars);
        if (resolution != null && own == null) {
            // Only the classpath is known: what the parent left out counts as unresolved.
            classpaths.unresolved += Math.max(
                    0,
                    declaredDependencies(pom)
                            - resolution.getPom().getRequestedDependencies().size());
        }
        JavaVersion mainVersion = own == null
                ? CompilerSettings.javaVersionMarker(null, null)
                : CompilerSettings.javaVersion(own.getPom(), false);
        JavaVersion testVersion = own == null ? mainVersion : CompilerSettings.javaVersion(own.getPom(), true);
        List<Marker> project = List.of(
                new BuildTool(randomId(), BuildTool.Type.Maven, Reactor.MAVEN_VERSION),
                new JavaProject(
                        randomId(),
                        coordinates.name(),
                        new JavaProject.Publication(
                                coordinates.group(), coordinates.artifact(), coordinates.version())));
        return new Reactor.Module(
                pom.getSourcePath(),
                coordinates.group() + ":" + coordinates.artifact() + ":" + coordinates.version(),
                classpaths.main,
                classpaths.test,
                classpaths.unresolved,
                project,
                mainVersion,
                testVersion,
                classpaths.siblings,
                own == null ? null : CompilerSettings.charset(own.getPom()));
    }

    private static int declaredDependencies(Xml.Document pom) {
        return pom.getRoot()
                .getChild("dependencies")
                .map(d -> d.getChildren("dependency").size())
                .orElse(0);
    }
}
