package rewriteassist.runner.maven;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.maven.tree.Scope;

/** A module's jars by classpath, the reactor modules it depends on, and what has no jar. */
final class Classpaths {
    final List<Path> main = new ArrayList<>();
    final List<Path> test = new ArrayList<>();
    final Set<Path> siblings = new LinkedHashSet<>();
    int unresolved;

    static Classpaths unresolved(int declared) {
        Classpaths classpaths = new Classpaths();
        classpaths.unresolved = declared;
        return classpaths;
    }

    /** Maven's classpaths: main = compile + provided; test = every scope. */
    public static Classpaths of(MavenResolutionResult resolution, Map<String, Path> reactor, Jars jars) {
        Classpaths classpaths = new Classpaths();
        int[] unresolved = {0};
        Set<ResolvedDependency> seen = new LinkedHashSet<>();
        for (Scope scope : List.of(Scope.Compile, Scope.Provided, Scope.Runtime, Scope.Test)) {
            for (ResolvedDependency dependency : resolution.getDependencies().getOrDefault(scope, List.of())) {
                if (!seen.add(dependency)) {
                    continue;
                }
                Path sibling = reactor.get(dependency.getGroupId() + ":" + dependency.getArtifactId());
                if (sibling != null) {
                    classpaths.siblings.add(sibling);
                }
                Optional<Path> jar =
                        jars.of(dependency, resolution.getPom().getRepositories(), reactor.keySet(), unresolved);
                if (jar.isPresent()) {
                    if (scope == Scope.Compile || scope == Scope.Provided) {
                        classpaths.main.add(jar.get());
                    }
                    classpaths.test.add(jar.get());
                }
            }
        }
        classpaths.unresolved = unresolved[0];
        dedupe(classpaths.main);
        dedupe(classpaths.test);
        return classpaths;
    }

    private static void dedupe(List<Path> jars) {
        List<Path> unique = new ArrayList<>(new LinkedHashSet<>(jars));
        jars.clear();
        jars.addAll(unique);
    }
}
