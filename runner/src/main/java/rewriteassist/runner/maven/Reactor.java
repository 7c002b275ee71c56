package rewriteassist.runner.maven;

import static org.openrewrite.Tree.randomId;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.HttpSenderExecutionContextView;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.ParseExceptionResult;
import org.openrewrite.Parser;
import org.openrewrite.SourceFile;
import org.openrewrite.groovy.tree.G;
import org.openrewrite.java.marker.JavaProject;
import org.openrewrite.java.marker.JavaSourceSet;
import org.openrewrite.java.marker.JavaVersion;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.JavaType;
import org.openrewrite.kotlin.tree.K;
import org.openrewrite.marker.BuildTool;
import org.openrewrite.marker.Marker;
import org.openrewrite.marker.Markers;
import org.openrewrite.maven.MavenExecutionContextView;
import org.openrewrite.maven.MavenParser;
import org.openrewrite.maven.cache.CompositeMavenPomCache;
import org.openrewrite.maven.cache.InMemoryMavenPomCache;
import org.openrewrite.maven.cache.MavenPomCache;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.MavenRepositoryMirror;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.maven.tree.Plugin;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.maven.tree.ResolvedPom;
import org.openrewrite.maven.tree.Scope;
import org.openrewrite.maven.utilities.MavenArtifactDownloader;
import org.openrewrite.xml.tree.Xml;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.gradle.GradleBuild;
import rewriteassist.runner.net.AccessDenied;
import rewriteassist.runner.net.ArtifactPaths;
import rewriteassist.runner.net.DiskPomCache;
import rewriteassist.runner.net.GuardedPomCache;
import rewriteassist.runner.net.LocalRepositoryCache;
import rewriteassist.runner.net.Network;
import rewriteassist.runner.net.RepositoryPolicy;
import rewriteassist.runner.parse.JavaSources;
import rewriteassist.runner.parse.RepositoryParser;
import rewriteassist.runner.protocol.ParseResults;

/**
 * The Maven reactor without Maven: every POM in one {@link MavenParser} call (siblings and parents
 * resolve each other; the rest comes through rewrite-maven's own downloader from the repositories
 * the POMs declare and Maven Central, with the mirrors and credentials of the user's settings.xml:
 * {@link MavenUserSettings}), each module's jars through {@link MavenArtifactDownloader}, and the
 * markers rewrite-maven-plugin's {@code MavenMojoProjectParser} attaches. No plugin, extension or
 * wrapper runs. Everything that cannot be resolved is a warning.
 */
public final class Reactor {
    /**
     * The Maven version in {@link BuildTool}: no Maven runs, and {@code .mvn/} is deliberately not
     * read, so this is a recent release rather than the project's own.
     */
    static final String MAVEN_VERSION = "3.9.11";

    /**
     * POMs read once stay cached for the runner's life (later parses and recipe runs), and on
     * disk too when {@link #keepPomsIn} was called.
     */
    private static volatile MavenPomCache pomCache = new InMemoryMavenPomCache();

    private final Path root;
    private final RepositoryPolicy policy;
    private final List<SourceFile> poms;
    /** The text each POM was resolved from (without what cannot be downloaded), by source path. */
    private final Map<Path, String> resolvedFrom;
    /** The coordinates of each jar (the source sets' {@code gavToTypes}). */
    private final Map<Path, String> gavs;
    /** By module directory (relative to root; "" for the root), deepest first. */
    private final Map<Path, Module> modules;
    /** What the parse could not download, and what it left out of the POMs for it. */
    private final Unavailable unavailable;

    private Reactor(
            Path root,
            RepositoryPolicy policy,
            List<SourceFile> poms,
            Map<Path, String> resolvedFrom,
            Map<Path, Module> modules,
            Map<Path, String> gavs,
            Unavailable unavailable) {
        this.root = root;
        this.policy = policy;
        this.resolvedFrom = resolvedFrom;
        this.poms = poms;
        this.modules = modules;
        this.gavs = gavs;
        this.unavailable = unavailable;
    }

    /**
     * A module: its POM, coordinates, classpaths and the markers of its files; the directories of
     * the reactor's modules it depends on (their sources stand in for their jars, which were never
     * built), and the charset its sources are written in (null: the platform's, as for the plugin).
     */
    public record Module(
            Path pom,
            String gav,
            List<Path> mainJars,
            List<Path> testJars,
            int unresolved,
            List<Marker> project,
            JavaVersion mainVersion,
            JavaVersion testVersion,
            Set<Path> siblings,
            @Nullable Charset charset) {}

    public List<SourceFile> poms() {
        return poms;
    }

    /**
     * The trees with a fresh resolution on each POM, for one recipe run. Maven recipes change the
     * resolution they find on a tree in place (rewrite-maven's {@code UpdateMavenModel} rewrites
     * the requested POM's properties), so trees shared between runs would carry one run's changes
     * into the next. Resolving again from the same texts is quick: every POM is in the cache.
     */
    public List<SourceFile> withFreshResolutions(List<SourceFile> trees) {
        if (resolvedFrom.isEmpty()) {
            return trees;
        }
        long started = System.nanoTime();
        ExecutionContext ctx =
                configure(new InMemoryExecutionContext(t -> Log.log("resolving again: " + Log.oneLine(t))), policy);
        List<Parser.Input> inputs = new ArrayList<>();
        resolvedFrom.forEach((path, text) -> inputs.add(new Parser.Input(
                root.resolve(path), () -> new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))));
        Map<Path, MavenResolutionResult> fresh = new HashMap<>();
        for (SourceFile pom :
                MavenParser.builder().build().parseInputs(inputs, root, ctx).toList()) {
            pom.getMarkers().findFirst(MavenResolutionResult.class).ifPresent(r -> fresh.put(pom.getSourcePath(), r));
        }
        List<SourceFile> out = new ArrayList<>(trees.size());
        for (SourceFile tree : trees) {
            MavenResolutionResult resolution = fresh.get(tree.getSourcePath());
            boolean resolved =
                    tree.getMarkers().findFirst(MavenResolutionResult.class).isPresent();
            out.add(
                    resolution == null || !resolved
                            ? tree
                            : tree.withMarkers(tree.getMarkers()
                                    .removeByType(MavenResolutionResult.class)
                                    .add(resolution)));
        }
        Log.log("  POMs resolved again in " + Log.seconds(started) + " s");
        return out;
    }

    /** The source paths of the reactor's POMs (a {@code pom.xml} elsewhere is plain XML). */
    public Set<Path> pomPaths() {
        Set<Path> paths = new LinkedHashSet<>();
        for (Module module : modules.values()) {
            if (module.pom().getFileName().toString().endsWith(".xml")) {
                paths.add(module.pom());
            }
        }
        return paths;
    }

    /**
     * This reactor with the projects of a Gradle build as modules too, so their sources get the
     * same markers and classpaths ({@link GradleBuild}). A directory that is a Maven module stays
     * one.
     */
    public Reactor with(GradleBuild gradle) {
        if (gradle.modules().isEmpty()) {
            return this;
        }
        Map<Path, Module> all = new LinkedHashMap<>(gradle.modules());
        all.putAll(modules);
        Map<Path, String> allGavs = new HashMap<>(gradle.gavs());
        allGavs.putAll(gavs);
        return new Reactor(root, policy, poms, resolvedFrom, deepestFirst(all), allGavs, unavailable);
    }

    /**
     * The reactor for trees a recipe made from the parsed ones: a POM the recipe changed is resolved
     * again from its new text in each later run (a follow-up recipe sees the upgraded parent, not
     * the old one), without what the parse could not download: the recipe's text still names it.
     */
    public Reactor after(List<SourceFile> trees) {
        Map<Path, String> texts = new LinkedHashMap<>(resolvedFrom);
        for (SourceFile tree : trees) {
            if (tree instanceof Xml.Document && resolvedFrom.containsKey(tree.getSourcePath())) {
                String now = tree.printAll();
                String without = unavailable.settledIn(now);
                if (!without.equals(resolvedFrom.get(tree.getSourcePath()))) {
                    texts.put(tree.getSourcePath(), without);
                }
            }
        }
        return new Reactor(root, policy, poms, texts, modules, gavs, unavailable);
    }

    /** Keeps downloaded POMs and version metadata in {@code folder} as well, for later runners. */
    public static void keepPomsIn(Path folder) {
        pomCache = new CompositeMavenPomCache(new InMemoryMavenPomCache(), new DiskPomCache(folder, Clock.systemUTC()));
    }

    /**
     * Sets the user's Maven settings, the local repository and the caches on a context, for the
     * parse and for recipes that resolve or download while they run. Every POM, version list and jar
     * passes the policy's checks ({@link GuardedPomCache}, {@link LocalRepositoryCache}).
     */
    public static ExecutionContext configure(ExecutionContext ctx, RepositoryPolicy policy) {
        // First: the settings replace the context's local repository, and ours is the request's.
        policy.settings().applyTo(ctx);
        configureWithoutMavenSettings(ctx, policy);
        MavenExecutionContextView.view(ctx).setResolutionListener(new Prefetcher(c -> configure(c, policy)));
        return ctx;
    }

    /**
     * {@link #configure} without the user's Maven settings, for Gradle builds: Gradle does not read
     * settings.xml, so its mirrors and servers are not what the build would use.
     */
    public static ExecutionContext configureWithoutMavenSettings(ExecutionContext ctx, RepositoryPolicy policy) {
        MavenExecutionContextView maven = MavenExecutionContextView.view(ctx);
        maven.setLocalRepository(MavenRepository.MAVEN_LOCAL_DEFAULT.withUri(
                policy.localRepository().toUri().toString()));
        maven.setPomCache(new GuardedPomCache(pomCache, policy));
        maven.setArtifactCache(new LocalRepositoryCache(policy));
        HttpSenderExecutionContextView.view(ctx).setHttpSender(policy.sender()).setLargeFileHttpSender(policy.sender());
        maven.setResolutionListener(new Prefetcher(c -> configureWithoutMavenSettings(c, policy)));
        return ctx;
    }

    public static Reactor resolve(
            Path root,
            List<Path> pomFiles,
            RepositoryPolicy policy,
            RepositoryParser.Warnings warnings,
            RepositoryParser.Unparsed unparsed)
            throws IOException {
        long started = System.nanoTime();
        Unavailable unavailable = new Unavailable();
        ExecutionContext ctx =
                configure(new InMemoryExecutionContext(t -> downloadFailure(t, policy, warnings, unavailable)), policy);

        List<SourceFile> parsed = new ArrayList<>();
        // A parent cycle or a property bomb would cost the whole resolution (PomBudget): such a POM
        // is plain text, named in the warnings, and the others resolve without it.
        Map<Path, String> overBudget = PomBudget.exceeded(root, pomFiles);
        for (Map.Entry<Path, String> refused : overBudget.entrySet()) {
            parsed.add(unparsed.overBudget(refused.getKey(), refused.getValue(), ctx));
        }
        List<Path> withinBudget =
                pomFiles.stream().filter(file -> !overBudget.containsKey(file)).toList();
        for (SourceFile tree : parseAll(withinBudget, Map.of(), root, ctx)) {
            // A POM that is not even XML is plain text, like any file that does not parse.
            parsed.add(RepositoryParser.kept(tree, root, ctx, unparsed));
        }
        Map<Path, String> texts = new HashMap<>();
        parsed = resolveWithout(parsed, unavailable, texts, root, ctx, warnings);
        Map<Path, String> resolvedFrom = new LinkedHashMap<>();
        for (SourceFile pom : parsed) {
            if (pom instanceof Xml.Document) {
                resolvedFrom.put(pom.getSourcePath(), texts.getOrDefault(pom.getSourcePath(), pom.printAll()));
            }
        }

        // The reactor's own artifacts: their jars were never built, their sources are parsed.
        Map<Path, Module> modules = new LinkedHashMap<>();
        Map<String, Path> reactor = new LinkedHashMap<>();
        for (SourceFile pom : parsed) {
            if (pom instanceof Xml.Document document) {
                reactor.put(Coordinates.of(document).ga(), directoryOf(pom));
            }
        }
        Jars jars = new Jars(policy, warnings, ctx, policy.accessDenied());
        List<SourceFile> marked = new ArrayList<>();
        for (SourceFile pom : parsed) {
            if (!(pom instanceof Xml.Document document)) {
                marked.add(pom);
                continue;
            }
            Path dir = directoryOf(pom);
            MavenResolutionResult classpathOnly =
                    document.getMarkers().findFirst(MavenResolutionResult.class).isPresent()
                            ? null
                            : parentless(document, root, policy, warnings);
            if (classpathOnly == null
                    && document.getMarkers()
                            .findFirst(MavenResolutionResult.class)
                            .isEmpty()) {
                warnings.add(pom.getSourcePath() + ": its module's types come from its sources only");
            }
            Module module = module(document, classpathOnly, reactor, jars);
            modules.put(dir, module);
            marked.add(document);
        }
        Log.log("  maven: " + pomFiles.size() + " POMs, " + jars.count() + " jars in " + Log.seconds(started) + " s");
        return new Reactor(root, policy, marked, resolvedFrom, deepestFirst(modules), jars.gavs, unavailable);
    }

    /** The directory of a module's POM, relative to the root ("" for the root). */
    private static Path directoryOf(SourceFile pom) {
        return pom.getSourcePath().getParent() == null
                ? Path.of("")
                : pom.getSourcePath().getParent();
    }

    /** Modules by directory, deepest first, so a file belongs to the innermost module around it. */
    private static Map<Path, Module> deepestFirst(Map<Path, Module> modules) {
        Map<Path, Module> out = new LinkedHashMap<>();
        modules.keySet().stream()
                .sorted(Comparator.comparingInt((Path p) -> p.toString().isEmpty() ? 0 : p.getNameCount())
                        .reversed()
                        .thenComparing(Path::toString))
                .forEach(dir -> out.put(dir, modules.get(dir)));
        return out;
    }

    /** Parses the POMs in one call; {@code texts} replaces the content of some of them. */
    private static List<SourceFile> parseAll(
            List<Path> pomFiles, Map<Path, String> texts, Path root, ExecutionContext ctx) {
        if (pomFiles.isEmpty()) {
            return List.of();
        }
        List<Parser.Input> inputs = new ArrayList<>();
        for (Path file : pomFiles) {
            String text = texts.get(root.relativize(file));
            inputs.add(
                    text == null
                            ? new Parser.Input(file, () -> open(file))
                            : new Parser.Input(
                                    file, () -> new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))));
        }
        return MavenParser.builder().build().parseInputs(inputs, root, ctx).toList();
    }

    private static InputStream open(Path file) {
        try {
            return Files.newInputStream(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A failure the downloaders report: a warning, and what {@link #resolveWithout} leaves out. */
    private static void downloadFailure(
            Throwable t, RepositoryPolicy policy, RepositoryParser.Warnings warnings, Unavailable unavailable) {
        policy.accessDenied().take(t);
        List<String> reported = unavailable.take(t);
        if (reported == null) {
            warnings.add(Log.oneLine(t));
        } else {
            reported.forEach(warnings::add);
        }
    }

    /**
     * One artifact that cannot be downloaded (a dependency that exists only in a private repository,
     * a BOM on a retired one) leaves the whole POM unresolved, and Maven recipes then skip it. So
     * POMs that failed are resolved again from copies without what failed ({@link Unavailable}: a few
     * rounds, since dropping a BOM can make versionless dependencies fail next, and a transitive
     * failure is first excluded alone), and that resolution is attached to the original, untouched
     * tree. An unresolvable parent stays a failure, unless it is a snapshot with a release below it.
     */
    private static List<SourceFile> resolveWithout(
            List<SourceFile> poms,
            Unavailable unavailable,
            Map<Path, String> texts,
            Path root,
            ExecutionContext ctx,
            RepositoryParser.Warnings warnings) {
        Map<Path, MavenResolutionResult> resolved = new HashMap<>();
        Map<Path, Set<String>> dropped = new HashMap<>();
        Unavailable.Releases releases = new NewestRelease(ctx);
        for (int round = 0; round < 6; round++) {
            boolean changed = false;
            for (SourceFile pom : poms) {
                if (!(pom instanceof Xml.Document) || isResolved(pom, resolved)) {
                    continue;
                }
                String before = texts.getOrDefault(pom.getSourcePath(), pom.printAll());
                String after = unavailable.withoutFailures(
                        before, dropped.computeIfAbsent(pom.getSourcePath(), p -> new LinkedHashSet<>()), releases);
                if (!after.equals(before)) {
                    texts.put(pom.getSourcePath(), after);
                    changed = true;
                }
            }
            if (!changed) {
                break;
            }
            List<Path> files = poms.stream()
                    .filter(p -> p instanceof Xml.Document)
                    .map(p -> root.resolve(p.getSourcePath()))
                    .toList();
            unavailable.newRound();
            try {
                for (SourceFile again : parseAll(files, texts, root, ctx)) {
                    again.getMarkers()
                            .findFirst(MavenResolutionResult.class)
                            .ifPresent(r -> resolved.put(again.getSourcePath(), r));
                }
            } catch (RuntimeException e) {
                warnings.add("resolving the POMs again without what cannot be downloaded failed: " + Log.oneLine(e));
                break;
            }
        }
        List<SourceFile> out = new ArrayList<>();
        for (SourceFile pom : poms) {
            MavenResolutionResult again = resolved.get(pom.getSourcePath());
            if (pom.getMarkers().findFirst(MavenResolutionResult.class).isEmpty() && again != null) {
                Set<String> without = dropped.getOrDefault(pom.getSourcePath(), Set.of());
                warnings.add(pom.getSourcePath()
                        + (without.isEmpty()
                                ? ": resolved once the other POMs were resolved without what cannot be downloaded"
                                : ": resolved without the artifacts that cannot be downloaded ("
                                        + String.join(", ", without) + ")"));
                Markers markers = pom.getMarkers().removeByType(ParseExceptionResult.class);
                out.add(pom.withMarkers(markers.add(again)));
            } else {
                if (pom instanceof Xml.Document
                        && pom.getMarkers()
                                .findFirst(MavenResolutionResult.class)
                                .isEmpty()) {
                    warnings.add(pom.getSourcePath() + ": not resolved (its parent or a BOM cannot be downloaded): "
                            + "Maven recipes skip it");
                }
                out.add(pom);
            }
        }
        return out;
    }

    /**
     * The resolution of a POM of the unresolved POM's own versioned dependencies
     * ({@link ParentlessClasspath}), for its classpath only; null when there is none. A dependency
     * that cannot be downloaded is left out, as for any POM.
     */
    private static @Nullable MavenResolutionResult parentless(
            Xml.Document pom, Path root, RepositoryPolicy policy, RepositoryParser.Warnings warnings) {
        Optional<String> text = ParentlessClasspath.pomOf(pom);
        if (text.isEmpty()) {
            return null;
        }
        Path dir = pom.getSourcePath().getParent() == null
                ? Path.of("")
                : pom.getSourcePath().getParent();
        Path file = root.resolve(dir).resolve(".rewriteassist-parentless").resolve("pom.xml");
        Map<Path, String> texts = new HashMap<>();
        texts.put(root.relativize(file), text.get());
        Unavailable unavailable = new Unavailable();
        ExecutionContext quiet = configure(
                new InMemoryExecutionContext(t -> {
                    policy.accessDenied().take(t);
                    unavailable.take(t);
                }),
                policy);
        Set<String> dropped = new LinkedHashSet<>();
        for (int round = 0; round < 4; round++) {
            unavailable.newRound();
            try {
                for (SourceFile again : parseAll(List.of(file), texts, root, quiet)) {
                    Optional<MavenResolutionResult> resolution =
                            again.getMarkers().findFirst(MavenResolutionResult.class);
                    if (resolution.isPresent()) {
                        warnings.add(pom.getSourcePath() + ": its module's classpath comes from the dependencies it "
                                + "declares with versions of their own, without its parent"
                                + (dropped.isEmpty() ? "" : " (left out: " + String.join(", ", dropped) + ")"));
                        return resolution.get();
                    }
                }
            } catch (RuntimeException e) {
                Log.log("classpath without the parent of " + pom.getSourcePath() + ": " + Log.oneLine(e));
                return null;
            }
            String before = texts.get(root.relativize(file));
            String after = unavailable.withoutFailures(before, dropped, Unavailable.Releases.NONE);
            if (after.equals(before)) {
                return null;
            }
            texts.put(root.relativize(file), after);
        }
        return null;
    }

    private static boolean isResolved(SourceFile pom, Map<Path, MavenResolutionResult> resolved) {
        return pom.getMarkers().findFirst(MavenResolutionResult.class).isPresent()
                || resolved.containsKey(pom.getSourcePath());
    }

    /** A POM's coordinates and project name: resolved when it could be, else as written. */
    private record Coordinates(String group, String artifact, String version, String name) {
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

    private static Module module(
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
        JavaVersion mainVersion = own == null ? javaVersionMarker(null, null) : javaVersion(own.getPom(), false);
        JavaVersion testVersion = own == null ? mainVersion : javaVersion(own.getPom(), true);
        List<Marker> project = List.of(
                new BuildTool(randomId(), BuildTool.Type.Maven, MAVEN_VERSION),
                new JavaProject(
                        randomId(),
                        coordinates.name(),
                        new JavaProject.Publication(
                                coordinates.group(), coordinates.artifact(), coordinates.version())));
        return new Module(
                pom.getSourcePath(),
                coordinates.group() + ":" + coordinates.artifact() + ":" + coordinates.version(),
                classpaths.main,
                classpaths.test,
                classpaths.unresolved,
                project,
                mainVersion,
                testVersion,
                classpaths.siblings,
                own == null ? null : charset(own.getPom()));
    }

    private static int declaredDependencies(Xml.Document pom) {
        return pom.getRoot()
                .getChild("dependencies")
                .map(d -> d.getChildren("dependency").size())
                .orElse(0);
    }

    /** A module's jars by classpath, the reactor modules it depends on, and what has no jar. */
    private static final class Classpaths {
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
                for (ResolvedDependency dependency :
                        resolution.getDependencies().getOrDefault(scope, List.of())) {
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

    /**
     * The charset of a module's sources as rewrite-maven-plugin reads it: the compiler plugin's
     * {@code encoding}, else {@code project.build.sourceEncoding}; null when neither names a
     * charset this JVM knows.
     */
    static @Nullable Charset charset(ResolvedPom pom) {
        JsonNode configuration = compilerConfiguration(pom);
        String encoding = configuration == null
                ? null
                : level(pom, configuration.path("encoding").asText(null));
        if (encoding == null) {
            encoding = level(pom, pom.getProperties().get("project.build.sourceEncoding"));
        }
        try {
            return encoding == null ? null : Charset.forName(encoding);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The module's Java level as the compiler plugin or the properties set it (the plugin's rules). */
    static JavaVersion javaVersion(ResolvedPom pom, boolean test) {
        String release = test ? "testRelease" : "release";
        String source = test ? "testSource" : "source";
        String target = test ? "testTarget" : "target";
        String sourceLevel = null;
        String targetLevel = null;
        JsonNode configuration = compilerConfiguration(pom);
        if (configuration != null) {
            String level = level(pom, configuration.path(release).asText(null));
            if (level != null) {
                sourceLevel = level;
                targetLevel = level;
            } else {
                sourceLevel = level(pom, configuration.path(source).asText(null));
                targetLevel = level(pom, configuration.path(target).asText(null));
            }
        }
        if (sourceLevel == null || targetLevel == null) {
            String level = level(pom, pom.getProperties().get("maven.compiler." + release));
            if (level != null) {
                sourceLevel = level;
                targetLevel = level;
            } else {
                sourceLevel = sourceLevel != null
                        ? sourceLevel
                        : level(pom, pom.getProperties().get("maven.compiler." + source));
                targetLevel = targetLevel != null
                        ? targetLevel
                        : level(pom, pom.getProperties().get("maven.compiler." + target));
            }
        }
        if (test && (sourceLevel == null || targetLevel == null)) {
            JavaVersion main = javaVersion(pom, false);
            sourceLevel = sourceLevel != null ? sourceLevel : main.getSourceCompatibility();
            targetLevel = targetLevel != null ? targetLevel : main.getTargetCompatibility();
        }
        return javaVersionMarker(sourceLevel, targetLevel);
    }

    private static @Nullable JsonNode compilerConfiguration(ResolvedPom pom) {
        for (List<Plugin> plugins : List.of(pom.getPlugins(), pom.getPluginManagement())) {
            for (Plugin plugin : plugins) {
                if (plugin.getGroupId().equals(Plugin.PLUGIN_DEFAULT_GROUPID)
                        && plugin.getArtifactId().equals("maven-compiler-plugin")
                        && plugin.getConfiguration() != null) {
                    return plugin.getConfiguration();
                }
            }
        }
        return null;
    }

    /** A usable level: set, with its properties resolved, and no placeholder left. */
    private static @Nullable String level(ResolvedPom pom, @Nullable String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String resolved = pom.getValue(value.strip());
        return resolved == null || resolved.isBlank() || resolved.contains("${") ? null : resolved;
    }

    public static JavaVersion javaVersionMarker(@Nullable String source, @Nullable String target) {
        String runtime = System.getProperty("java.specification.version");
        String sourceLevel = source == null ? runtime : source;
        return new JavaVersion(
                randomId(),
                runtime,
                System.getProperty("java.vm.vendor"),
                sourceLevel,
                target == null ? sourceLevel : target);
    }

    /**
     * The markers rewrite-maven-plugin attaches: {@link BuildTool} and {@link JavaProject} on every
     * file of a module (its innermost one), {@link JavaSourceSet} and {@link JavaVersion} (main or
     * test) on the files of its source sets and on every Java, Kotlin and Groovy source.
     */
    public List<SourceFile> mark(List<SourceFile> trees) {
        Map<String, JavaSourceSet> sourceSets = new HashMap<>();
        SourceSets builder = new SourceSets();
        List<SourceFile> marked = new ArrayList<>(trees.size());
        for (SourceFile tree : trees) {
            Markers markers = tree.getMarkers();
            Path dir = moduleOf(tree.getSourcePath());
            Module module = dir == null ? null : modules.get(dir);
            if (module != null) {
                for (Marker marker : module.project()) {
                    markers = markers.addIfAbsent(marker);
                }
            }
            Path inModule = dir == null || dir.toString().isEmpty()
                    ? tree.getSourcePath()
                    : dir.relativize(tree.getSourcePath());
            String set = sourceSet(inModule, tree);
            if (set != null) {
                boolean test = set.equals("test");
                List<Path> classpath = module == null ? List.of() : test ? module.testJars() : module.mainJars();
                String key = dir + "#" + set;
                JavaSourceSet sourceSet = sourceSets.computeIfAbsent(key, k -> builder.build(set, classpath));
                markers = markers.addIfAbsent(sourceSet);
                JavaVersion version = module == null
                        ? javaVersionMarker(null, null)
                        : test ? module.testVersion() : module.mainVersion();
                markers = markers.addIfAbsent(version);
            }
            marked.add(tree.withMarkers(markers));
        }
        return marked;
    }

    /**
     * {@link JavaSourceSet#build} for many modules: the same as it, but each jar's types are read
     * once per parse instead of once per module and source set (a reactor of fifty modules shares
     * most of its jars).
     */
    private final class SourceSets {
        private final Map<Path, List<JavaType.FullyQualified>> typesByJar = new HashMap<>();
        private @Nullable List<JavaType.FullyQualified> standardLibrary;

        JavaSourceSet build(String name, List<Path> classpath) {
            if (standardLibrary == null) {
                standardLibrary = JavaSourceSet.build(name, List.of()).getClasspath();
            }
            List<JavaType.FullyQualified> types = new ArrayList<>(standardLibrary);
            Map<String, List<JavaType.FullyQualified>> byGav = new LinkedHashMap<>();
            for (Path jar : classpath) {
                List<JavaType.FullyQualified> jarTypes =
                        typesByJar.computeIfAbsent(jar, j -> JavaSourceSet.typesFromPath(j, null));
                types.addAll(jarTypes);
                String gav = gavs.get(jar);
                if (gav != null) {
                    byGav.put(gav, jarTypes);
                }
            }
            return new JavaSourceSet(randomId(), name, types, byGav);
        }
    }

    /**
     * The source sets of the reactor's modules, with the Java, Kotlin and Groovy sources given
     * (absolute paths under {@code root}), each with its module's classpath for that set.
     */
    public List<JavaSources.SourceSet> sourceSets(Path root, List<Path> java, List<Path> kotlin, List<Path> groovy) {
        Map<String, List<List<Path>>> files = new LinkedHashMap<>();
        Map<String, Path> moduleOfSet = new HashMap<>();
        List<List<Path>> kinds = List.of(java, kotlin, groovy);
        for (int kind = 0; kind < kinds.size(); kind++) {
            for (Path file : kinds.get(kind)) {
                Path relative = root.relativize(file);
                Path dir = moduleOf(relative);
                Path module = dir == null ? Path.of("") : dir;
                Path inModule = module.toString().isEmpty() ? relative : module.relativize(relative);
                String set = setOf(inModule);
                String key = module + "#" + set;
                moduleOfSet.put(key, module);
                files.computeIfAbsent(key, k -> List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>()))
                        .get(kind)
                        .add(file);
            }
        }
        List<JavaSources.SourceSet> sets = new ArrayList<>();
        files.forEach((key, byKind) -> {
            Path dir = moduleOfSet.get(key);
            Module module = modules.get(dir);
            boolean test = key.endsWith("#test");
            sets.add(new JavaSources.SourceSet(
                    dir,
                    test ? "test" : "main",
                    byKind.get(0),
                    byKind.get(1),
                    byKind.get(2),
                    module == null ? List.of() : test ? module.testJars() : module.mainJars(),
                    module == null ? Set.of() : module.siblings(),
                    module == null ? null : module.charset()));
        });
        return sets;
    }

    /** The coordinates of each jar on the modules' classpaths. */
    public Map<Path, String> gavs() {
        return gavs;
    }

    /** Where a source file belongs: its module (by directory) and whether it is in the test set. */
    public record Placement(Path dir, Module module, boolean test) {
        /** The jars of its source set as the parse gave them to the Java parser. */
        public List<Path> jars() {
            return test ? module.testJars() : module.mainJars();
        }
    }

    /** The module and source set of a source file (a path relative to the root); null outside any. */
    @Nullable
    public Placement placement(Path sourcePath) {
        Path dir = moduleOf(sourcePath);
        Module module = dir == null ? null : modules.get(dir);
        if (dir == null || module == null) {
            return null;
        }
        Path inModule = dir.toString().isEmpty() ? sourcePath : dir.relativize(sourcePath);
        return new Placement(dir, module, setOf(inModule).equals("test"));
    }

    /**
     * The jars of a source set from another resolution of its module's POM (one a recipe updated,
     * as {@code AddDependency} does), fetched as the parse fetches them: the reactor's own
     * artifacts have none, their sources stand in.
     */
    public List<Path> jarsFrom(MavenResolutionResult resolution, boolean test, Jars jars) {
        Map<String, Path> reactor = new LinkedHashMap<>();
        modules.forEach((dir, module) -> {
            int last = module.gav().lastIndexOf(':');
            reactor.put(last > 0 ? module.gav().substring(0, last) : module.gav(), dir);
        });
        Classpaths classpaths = Classpaths.of(resolution, reactor, jars);
        return test ? classpaths.test : classpaths.main;
    }

    /** "main" or "test" for a source by its path in its module ({@code src/main/…}, {@code src/test/…}). */
    static String setOf(Path inModule) {
        if (inModule.getNameCount() >= 3 && inModule.getName(0).toString().equals("src")) {
            String set = inModule.getName(1).toString();
            if (!set.equals("main") && set.toLowerCase(java.util.Locale.ROOT).contains("test")) {
                return "test";
            }
        }
        return "main";
    }

    /** "main" or "test" for a file of a source set (by its path in the module), else null. */
    private static @Nullable String sourceSet(Path inModule, SourceFile tree) {
        boolean source = tree instanceof J.CompilationUnit || tree instanceof K || tree instanceof G;
        if (inModule.getNameCount() >= 3 && inModule.getName(0).toString().equals("src")) {
            String set = inModule.getName(1).toString();
            if (set.equals("main")) {
                return "main";
            }
            if (set.toLowerCase(java.util.Locale.ROOT).contains("test")) {
                return "test";
            }
        }
        if (!source
                || tree.getSourcePath().toString().endsWith(".gradle")
                || tree.getSourcePath().toString().endsWith(".gradle.kts")) {
            return null;
        }
        return "main";
    }

    private @Nullable Path moduleOf(Path relative) {
        for (Path dir : modules.keySet()) {
            if (dir.toString().isEmpty() || relative.startsWith(dir)) {
                return dir;
            }
        }
        return null;
    }

    /** The modules for the parse's results, by build file. */
    public List<ParseResults.ParsedModule> report() {
        return modules.values().stream()
                .sorted(Comparator.comparing(m -> m.pom().toString()))
                .map(module -> new ParseResults.ParsedModule(
                        module.pom().toString(), module.gav(), module.testJars().size(), module.unresolved()))
                .toList();
    }

    /** Jars of dependencies, each fetched once per parse (Maven modules and Gradle projects). */
    public static final class Jars {
        private final MavenArtifactDownloader downloader;
        private final RepositoryPolicy policy;
        private final Map<String, Optional<Path>> fetched = new HashMap<>();
        private final Collection<MavenRepositoryMirror> mirrors;
        private final AccessDenied accessDenied;
        public final Map<Path, String> gavs = new HashMap<>();

        /**
         * Jars through {@code ctx}: its Maven settings (none for a Gradle build) give the mirrors and
         * the servers' credentials (a Gradle build's repositories carry their own). A repository that
         * refuses access goes to {@code accessDenied}.
         */
        public Jars(
                RepositoryPolicy policy,
                RepositoryParser.Warnings warnings,
                ExecutionContext ctx,
                AccessDenied accessDenied) {
            Consumer<Throwable> onError = t -> warnings.add("jar not downloaded: " + Log.oneLine(t));
            MavenExecutionContextView maven = MavenExecutionContextView.view(ctx);
            this.policy = policy;
            this.accessDenied = accessDenied;
            // Through the runner's sender, like POMs: counted, bounded, and a refusal is seen.
            this.downloader = new MavenArtifactDownloader(
                    new LocalRepositoryCache(policy), maven.getSettings(), policy.sender(), onError, ctx);
            this.mirrors = maven.getMirrors();
        }

        public int count() {
            return (int) fetched.values().stream().filter(Optional::isPresent).count();
        }

        /**
         * The jar of a dependency. A sibling in the reactor has none (its sources are parsed), nor
         * has a non-jar artifact. A jar whose POM was found in the local repository without the jar
         * beside it is fetched from {@code repositories} (the POM's) and Maven Central, as Maven
         * would.
         */
        public Optional<Path> of(
                ResolvedDependency dependency,
                List<MavenRepository> repositories,
                Set<String> reactor,
                int[] unresolved) {
            String type = dependency.getType() == null ? "jar" : dependency.getType();
            if (dependency.getRepository() == null
                    || reactor.contains(dependency.getGroupId() + ":" + dependency.getArtifactId())
                    || !type.equals("jar")) {
                return Optional.empty();
            }
            String key = dependency.getGav() + ":" + dependency.getClassifier();
            Optional<Path> jar = fetched.computeIfAbsent(key, k -> download(dependency, repositories));
            if (jar.isEmpty()) {
                unresolved[0]++;
            } else {
                ResolvedDependency d = dependency;
                gavs.put(jar.get(), d.getGroupId() + ":" + d.getArtifactId() + ":" + d.getVersion());
            }
            return jar;
        }

        private Optional<Path> download(ResolvedDependency dependency, List<MavenRepository> alsoFrom) {
            String invalid = ArtifactPaths.problem(dependency);
            if (invalid != null) {
                policy.refuse("refused " + ArtifactPaths.describe(dependency) + ": " + invalid);
                return Optional.empty();
            }
            List<MavenRepository> repositories = new ArrayList<>();
            repositories.add(dependency.getRepository());
            if (dependency.getRepository().getUri().startsWith("file:")) {
                // As declared, so through the settings' mirrors, as Maven would reach them.
                alsoFrom.forEach(r -> repositories.add(MavenRepositoryMirror.apply(mirrors, r)));
                repositories.add(MavenRepositoryMirror.apply(mirrors, MavenRepository.MAVEN_CENTRAL));
            }
            for (MavenRepository repository : repositories) {
                String refusal = policy.refusal(repository.getUri());
                if (refusal != null) {
                    policy.refuse(refusal);
                    continue;
                }
                try {
                    Path jar = downloader.downloadArtifact(dependency.withRepository(repository));
                    if (jar != null) {
                        return Optional.of(jar);
                    }
                } catch (RuntimeException e) {
                    Log.log("jar of " + dependency.getGav() + " from " + repository.getUri() + ": " + Log.oneLine(e));
                }
                int denied = Network.SENDER.deniedUnder(
                        Network.folder(repository.getUri(), dependency.getGroupId(), dependency.getArtifactId()));
                if (denied != 0) {
                    accessDenied.refused(repository, denied, dependency.getGav().toString());
                }
            }
            return Optional.empty();
        }
    }
}
