package rewriteassist.runner.maven;

import static org.openrewrite.Tree.randomId;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
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
import org.openrewrite.maven.MavenParser;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.maven.utilities.MavenArtifactDownloader;
import org.openrewrite.xml.tree.Xml;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.gradle.GradleBuild;
import rewriteassist.runner.net.RepositoryPolicy;
import rewriteassist.runner.parse.JavaSources;
import rewriteassist.runner.parse.RepositoryParser;
import rewriteassist.runner.results.ParseResults;

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
    /** Each run's resolutions, made a run ahead. */
    private final FreshResolutions fresh;

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
        this.fresh = new FreshResolutions(root, policy, resolvedFrom);
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
     * into the next: a run gets resolutions no earlier run changed ({@link FreshResolutions}; say
     * how it went with {@link #ran}).
     */
    public List<SourceFile> withFreshResolutions(List<SourceFile> trees) {
        if (resolvedFrom.isEmpty()) {
            return trees;
        }
        Map<Path, MavenResolutionResult> fresh = this.fresh.take();
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
        return out;
    }

    /**
     * After a run on {@link #withFreshResolutions}' trees: whether it left their resolutions as they
     * were (it changed no POM and did not fail).
     */
    public void ran(boolean untouched) {
        fresh.ran(untouched);
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
        return new Reactor(root, policy, poms, resolvedFrom, ModuleReader.deepestFirst(all), allGavs, unavailable);
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

    public static Reactor resolve(
            Path root,
            List<Path> pomFiles,
            RepositoryPolicy policy,
            RepositoryParser.Warnings warnings,
            RepositoryParser.Unparsed unparsed)
            throws IOException {
        long started = System.nanoTime();
        Unavailable unavailable = new Unavailable();
        ExecutionContext ctx = MavenContexts.configure(
                new InMemoryExecutionContext(t -> PomResolution.downloadFailure(t, policy, warnings, unavailable)),
                policy);

        List<SourceFile> parsed = new ArrayList<>();
        // A parent cycle or a property bomb would cost the whole resolution (PomBudget): such a POM
        // is plain text, named in the warnings, and the others resolve without it.
        Map<Path, String> overBudget = PomBudget.exceeded(root, pomFiles);
        for (Map.Entry<Path, String> refused : overBudget.entrySet()) {
            parsed.add(unparsed.overBudget(refused.getKey(), refused.getValue(), ctx));
        }
        List<Path> withinBudget =
                pomFiles.stream().filter(file -> !overBudget.containsKey(file)).toList();
        for (SourceFile tree : PomResolution.parseAll(withinBudget, Map.of(), root, ctx)) {
            // A POM that is not even XML is plain text, like any file that does not parse.
            parsed.add(RepositoryParser.kept(tree, root, ctx, unparsed));
        }
        Map<Path, String> texts = new HashMap<>();
        parsed = PomResolution.resolveWithout(parsed, unavailable, texts, root, ctx, warnings);
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
                reactor.put(ModuleReader.Coordinates.of(document).ga(), ModuleReader.directoryOf(pom));
            }
        }
        Jars jars = new Jars(policy, warnings, ctx, policy.accessDenied());
        List<SourceFile> marked = new ArrayList<>();
        for (SourceFile pom : parsed) {
            if (!(pom instanceof Xml.Document document)) {
                marked.add(pom);
                continue;
            }
            Path dir = ModuleReader.directoryOf(pom);
            MavenResolutionResult classpathOnly =
                    document.getMarkers().findFirst(MavenResolutionResult.class).isPresent()
                            ? null
                            : PomResolution.parentless(document, root, policy, warnings);
            if (classpathOnly == null
                    && document.getMarkers()
                            .findFirst(MavenResolutionResult.class)
                            .isEmpty()) {
                warnings.add(pom.getSourcePath() + ": its module's types come from its sources only");
            }
            Module module = ModuleReader.module(document, classpathOnly, reactor, jars);
            modules.put(dir, module);
            marked.add(document);
        }
        Log.log("  maven: " + pomFiles.size() + " POMs, " + jars.count() + " jars in " + Log.seconds(started) + " s");
        return new Reactor(
                root, policy, marked, resolvedFrom, ModuleReader.deepestFirst(modules), jars.gavs, unavailable);
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
                        ? CompilerSettings.javaVersionMarker(null, null)
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
}
