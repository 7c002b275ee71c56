package rewriteassist.runner.measure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import org.openrewrite.gradle.marker.GradleDependencyConfiguration;
import org.openrewrite.gradle.marker.GradleProject;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.xml.tree.Xml;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.gradle.GradleResolution;
import rewriteassist.runner.maven.Jars;
import rewriteassist.runner.maven.MavenContexts;
import rewriteassist.runner.maven.Reactor;
import rewriteassist.runner.parse.RepositoryParser;

/**
 * A source set's classpath after the whole recipe, for {@link CompileCheck}: what the build files
 * the recipe changed now resolve to, fetched as the parse fetches jars ({@link Jars}: the
 * same policy, local repository, checksums and sender). Also after POM documents no recipe made
 * ({@link #ofPoms}: {@code learn_templates}' head POMs), as for the POMs a recipe changed.
 *
 * <ul>
 *   <li>Maven: when the recipe changed a POM of the reactor, every module gets the jars of its
 *       POM resolved again with the reactor's POMs as the recipe left them: a recipe that moves a
 *       dependency in a module and its version property in the parent changes both, and the
 *       module's own result tree was resolved against the parent before. Where that resolution
 *       gives nothing, a changed POM's result tree's {@link MavenResolutionResult} (Maven recipes
 *       such as {@code AddDependency} update it as they change the POM).
 *   <li>Gradle: the parse's jars, without those of dependencies that left the build script's
 *       {@link GradleProject} marker ({@code compileClasspath} or {@code testCompileClasspath}) and
 *       with those of dependencies that came into it, when a Gradle recipe updated the marker.
 *   <li>Anything else, or a build file the recipe did not change: the parse's jars.
 * </ul>
 */
public final class ClasspathAfter {
    private final RepositoryParser.Outcome parsed;
    /** The whole run's changes by their path before. */
    private final Map<Path, Result> changes;
    /**
     * The reactor's POMs as they are after, by their path before (a POM not among them is as the
     * parse read it); null: those {@link #changes} made.
     */
    private final @Nullable Map<Path, SourceFile> pomDocuments;

    private final RepositoryParser.Warnings downloads = new RepositoryParser.Warnings();
    private final Map<String, List<Path>> known = new HashMap<>();
    private @Nullable Jars mavenJars;
    /** The reactor's POMs as the recipe left them, resolved again together; null until asked. */
    private @Nullable Map<Path, MavenResolutionResult> pomsAfter;

    private @Nullable Jars gradleJars;

    ClasspathAfter(RepositoryParser.Outcome parsed, Map<Path, Result> changes) {
        this(parsed, changes, null);
    }

    private ClasspathAfter(
            RepositoryParser.Outcome parsed, Map<Path, Result> changes, @Nullable Map<Path, SourceFile> pomDocuments) {
        this.parsed = parsed;
        this.changes = changes;
        this.pomDocuments = pomDocuments;
    }

    /**
     * The classpath after POM documents no recipe made (a PR's head text of the reactor's POMs, by
     * their source path, each carrying the parse's markers of its POM): every module's jars from its
     * POM resolved again with them; a source set whose module does not resolve again keeps the
     * parse's jars ({@link #resolvedAgain} says which).
     */
    public static ClasspathAfter ofPoms(RepositoryParser.Outcome parsed, Map<Path, ? extends SourceFile> poms) {
        return new ClasspathAfter(parsed, Map.of(), Map.copyOf(poms));
    }

    /** What fetching the new jars warned about. */
    public List<String> warnings() {
        return downloads.lines();
    }

    /**
     * Whether a reactor POM (by source path) got a resolution of its own with the POMs after: not
     * when none changed, or when its text after did not resolve (it keeps the parse's).
     */
    public boolean resolvedAgain(Path pom) {
        MavenResolutionResult again = pomsAfter().get(pom);
        return again != null
                && parsed.trees().stream()
                        .filter(tree -> tree.getSourcePath().equals(pom))
                        .noneMatch(tree -> tree.getMarkers()
                                .findFirst(MavenResolutionResult.class)
                                .filter(resolution -> resolution == again)
                                .isPresent());
    }

    /** The jars of a source set after the recipe (or the POMs given). */
    public List<Path> of(Reactor.Placement placement) {
        return known.computeIfAbsent(placement.dir() + "#" + placement.test(), k -> compute(placement));
    }

    private List<Path> compute(Reactor.Placement placement) {
        MavenResolutionResult again = pomsAfter().get(placement.module().pom());
        if (again != null) {
            return parsed.reactor().jarsFrom(again, placement.test(), mavenJars());
        }
        Result change = changes.get(placement.module().pom());
        SourceFile after = change == null ? null : change.getAfter();
        if (change == null || after == null) {
            return placement.jars();
        }
        Optional<MavenResolutionResult> resolution = after.getMarkers().findFirst(MavenResolutionResult.class);
        if (after instanceof Xml.Document && resolution.isPresent()) {
            return parsed.reactor().jarsFrom(resolution.get(), placement.test(), mavenJars());
        }
        Optional<GradleProject> was = change.getBefore() == null
                ? Optional.empty()
                : change.getBefore().getMarkers().findFirst(GradleProject.class);
        Optional<GradleProject> is = after.getMarkers().findFirst(GradleProject.class);
        if (was.isPresent() && is.isPresent()) {
            return gradle(placement, was.get(), is.get());
        }
        return placement.jars();
    }

    /**
     * Each reactor POM's resolution with the POMs as the recipe left them (or as given), by path;
     * empty when none changed (the parse's jars hold). A POM whose text after does not resolve
     * keeps the parse's resolution.
     */
    private Map<Path, MavenResolutionResult> pomsAfter() {
        if (pomsAfter != null) {
            return pomsAfter;
        }
        Set<Path> pomPaths = parsed.reactor().pomPaths();
        Map<Path, SourceFile> documents = new HashMap<>();
        if (pomDocuments != null) {
            documents.putAll(pomDocuments);
        } else {
            changes.forEach((before, change) -> {
                if (change.getAfter() != null) {
                    documents.put(before, change.getAfter());
                }
            });
        }
        documents.keySet().retainAll(pomPaths);
        boolean changed = documents.values().stream().anyMatch(after -> after instanceof Xml.Document);
        Map<Path, MavenResolutionResult> out = new HashMap<>();
        if (changed) {
            List<SourceFile> poms = new ArrayList<>();
            for (SourceFile tree : parsed.trees()) {
                if (pomPaths.contains(tree.getSourcePath())) {
                    poms.add(documents.getOrDefault(tree.getSourcePath(), tree));
                }
            }
            for (SourceFile pom : parsed.reactor().after(poms).withFreshResolutions(poms)) {
                pom.getMarkers()
                        .findFirst(MavenResolutionResult.class)
                        .ifPresent(resolution -> out.put(pom.getSourcePath(), resolution));
            }
        }
        pomsAfter = out;
        return out;
    }

    /** The parse's jars, less the dependencies the marker lost, plus those it gained. */
    private List<Path> gradle(Reactor.Placement placement, GradleProject was, GradleProject is) {
        String configuration = placement.test() ? "testCompileClasspath" : "compileClasspath";
        Map<String, ResolvedDependency> before = resolved(was, configuration);
        Map<String, ResolvedDependency> after = resolved(is, configuration);
        Set<Path> jars = new LinkedHashSet<>();
        Map<Path, String> gavs = parsed.reactor().gavs();
        for (Path jar : placement.jars()) {
            String gav = gavs.get(jar);
            if (gav == null || !before.containsKey(gav) || after.containsKey(gav)) {
                jars.add(jar);
            }
        }
        for (Map.Entry<String, ResolvedDependency> gained : after.entrySet()) {
            if (!before.containsKey(gained.getKey())) {
                ResolvedDependency dependency = withRepository(gained.getValue(), is.getMavenRepositories());
                gradleJars()
                        .of(dependency, is.getMavenRepositories(), Set.of(), new int[1])
                        .ifPresent(jars::add);
            }
        }
        return new ArrayList<>(jars);
    }

    /**
     * A dependency with the repository its POM came from. Gradle's {@code AddDependency} records
     * the dependency it adds without one (its transitive dependencies have theirs), and a jar is
     * fetched from a dependency's repository: the repository its coordinates name, among the
     * project's, else Maven Central (as the parse's {@link GradleResolution} does).
     */
    private static ResolvedDependency withRepository(
            ResolvedDependency dependency, List<MavenRepository> repositories) {
        if (dependency.getRepository() != null) {
            return dependency;
        }
        String uri = dependency.getGav().getRepository();
        return dependency.withRepository(repositories.stream()
                .filter(r -> r.getUri().equals(uri))
                .findFirst()
                .orElse(MavenRepository.MAVEN_CENTRAL));
    }

    /** A configuration's resolved dependencies with everything below them, by {@code g:a:v}. */
    private static Map<String, ResolvedDependency> resolved(GradleProject project, String name) {
        Map<String, ResolvedDependency> all = new LinkedHashMap<>();
        GradleDependencyConfiguration configuration = project.getConfiguration(name);
        if (configuration == null) {
            return all;
        }
        List<ResolvedDependency> queue = new ArrayList<>(configuration.getResolved());
        while (!queue.isEmpty()) {
            ResolvedDependency dependency = queue.remove(queue.size() - 1);
            String gav = dependency.getGroupId() + ":" + dependency.getArtifactId() + ":" + dependency.getVersion();
            if (all.putIfAbsent(gav, dependency) == null) {
                queue.addAll(dependency.getDependencies());
            }
        }
        return all;
    }

    private Jars mavenJars() {
        if (mavenJars == null) {
            ExecutionContext ctx = MavenContexts.configure(context(), parsed.policy());
            mavenJars =
                    new Jars(parsed.policy(), downloads, ctx, parsed.policy().accessDenied());
        }
        return mavenJars;
    }

    /** Gradle's: without the user's Maven settings, as the parse reads Gradle builds. */
    private Jars gradleJars() {
        if (gradleJars == null) {
            ExecutionContext ctx = MavenContexts.configureWithoutMavenSettings(context(), parsed.policy());
            gradleJars =
                    new Jars(parsed.policy(), downloads, ctx, parsed.policy().accessDenied());
        }
        return gradleJars;
    }

    private static ExecutionContext context() {
        return new InMemoryExecutionContext(t -> Log.log("compile check: " + Log.oneLine(t)));
    }
}
