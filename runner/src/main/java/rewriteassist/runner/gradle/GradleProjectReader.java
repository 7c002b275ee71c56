package rewriteassist.runner.gradle;

import static org.openrewrite.Tree.randomId;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.gradle.marker.GradleBuildscript;
import org.openrewrite.gradle.marker.GradleDependencyConfiguration;
import org.openrewrite.gradle.marker.GradlePluginDescriptor;
import org.openrewrite.gradle.marker.GradleProject;
import org.openrewrite.java.marker.JavaProject;
import org.openrewrite.java.marker.JavaVersion;
import org.openrewrite.marker.BuildTool;
import org.openrewrite.marker.Marker;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.maven.tree.ResolvedGroupArtifactVersion;
import rewriteassist.runner.gradle.GradleScript.Declared;
import rewriteassist.runner.gradle.GradleScript.Plugin;
import rewriteassist.runner.gradle.GradleScript.Repository;
import rewriteassist.runner.maven.CompilerSettings;
import rewriteassist.runner.maven.Jars;
import rewriteassist.runner.maven.Reactor;
import rewriteassist.runner.net.AccessDenied;
import rewriteassist.runner.openrewrite.PomDownloader;
import rewriteassist.runner.parse.RepositoryParser;

/**
 * One project of a Gradle build: what its script and the root's {@code allprojects} /
 * {@code subprojects} blocks declare, resolved into its {@link GradleProject} marker (with the
 * buildscript's classpath) and the {@link Reactor.Module} that gives its sources their classpath.
 */
final class GradleProjectReader {
    /** A project of the build: its directory, build script, marker and module. */
    record Project(Path dir, @Nullable Path script, GradleProject marker, Reactor.Module module) {}

    /** The configurations of the Java plugin, declared and resolvable, and what the latter extend. */
    private static final List<String> DECLARED = List.of(
            "api",
            "implementation",
            "compileOnly",
            "runtimeOnly",
            "testImplementation",
            "testCompileOnly",
            "testRuntimeOnly",
            "annotationProcessor",
            "testAnnotationProcessor",
            "developmentOnly");

    /** Where Gradle resolves the {@code plugins {}} block's markers. */
    private static final MavenRepository GRADLE_PLUGIN_PORTAL = MavenRepository.builder()
            .id("Gradle Central Plugin Repository")
            .uri("https://plugins.gradle.org/m2")
            .releases(true)
            .snapshots(false)
            .build();

    private static final Map<String, List<String>> CLASSPATHS = Map.of(
            "compileClasspath", List.of("compileOnly", "implementation", "api"),
            "runtimeClasspath", List.of("runtimeOnly", "implementation", "api"),
            "testCompileClasspath", List.of("testCompileOnly", "testImplementation", "implementation", "api"),
            "testRuntimeClasspath",
                    List.of("testRuntimeOnly", "testImplementation", "runtimeOnly", "implementation", "api"));

    /** Configurations on the main compile classpath (the others are test-only or runtime-only). */
    private static final Set<String> MAIN = Set.of("api", "implementation", "compileOnly", "compile", "provided");

    /** Configurations not on the test classpath either. */
    private static final Set<String> NOT_TEST =
            Set.of("annotationProcessor", "testAnnotationProcessor", "developmentOnly");

    private final Path root;
    private final String rootName;
    private final GradleScript rootScript;
    private final GradleScript settingsScript;
    private final GradleCatalog catalog;
    private final String gradleVersion;
    private final Map<String, String> rootProperties;
    private final ExecutionContext ctx;
    private final PomDownloader downloader;
    private final Jars jars;
    private final RepositoryParser.Warnings warnings;
    private final GradleRepositories repositories;
    private final AccessDenied accessDenied;

    GradleProjectReader(
            Path root,
            String rootName,
            GradleScript rootScript,
            GradleScript settingsScript,
            GradleCatalog catalog,
            String gradleVersion,
            ExecutionContext ctx,
            Jars jars,
            RepositoryParser.Warnings warnings,
            GradleRepositories repositories,
            AccessDenied accessDenied)
            throws IOException {
        this.root = root;
        this.rootName = rootName;
        this.rootScript = rootScript;
        this.settingsScript = settingsScript;
        this.catalog = catalog;
        this.gradleVersion = gradleVersion;
        this.rootProperties = properties(root.resolve("gradle.properties"));
        this.ctx = ctx;
        this.downloader = PomDownloader.of(ctx);
        this.jars = jars;
        this.warnings = warnings;
        this.repositories = repositories;
        this.accessDenied = accessDenied;
    }

    /** The project in {@code dir} (empty for the root), whose script is {@code script} (or none). */
    Project project(Path dir, @Nullable Path script, GradleScript own) throws IOException {
        boolean isRoot = dir.toString().isEmpty();
        String name = isRoot ? rootName : dir.getFileName().toString();
        own.unread()
                .forEach(line -> warnings.add(
                        "gradle: " + (isRoot ? "" : dir + "/") + "build script: not read statically: " + line));
        Map<String, String> variables = new HashMap<>(rootProperties);
        variables.putAll(rootScript.variables());
        variables.putAll(properties(root.resolve(dir).resolve("gradle.properties")));
        variables.putAll(own.variables());

        List<Plugin> plugins = inherited(own.plugins(), rootScript.plugins(), isRoot, Plugin::scope);
        List<Repository> repositories = new ArrayList<>(settingsScript.repositories());
        repositories.addAll(inherited(own.repositories(), rootScript.repositories(), isRoot, Repository::scope));
        List<Declared> declared = inherited(own.dependencies(), rootScript.dependencies(), isRoot, Declared::scope);
        // A plugin applied without a version takes the one the root's plugins block gives it.
        Map<String, String> pluginVersions = new HashMap<>();
        rootScript.plugins().forEach(p -> pluginVersions.put(p.id(), p.version()));
        plugins.stream().filter(p -> !p.version().isEmpty()).forEach(p -> pluginVersions.put(p.id(), p.version()));
        List<MavenRepository> mavenRepositories = this.repositories.of(repositories);

        GradleResolution resolution =
                new GradleResolution(downloader, mavenRepositories, ctx, warnings, accessDenied, catalog, variables);
        resolution.managedBy(plugins, pluginVersions, declared);
        GradleResolution.Resolved resolved = resolution.resolveAll(declared, pluginVersions);

        String group = own.group().or(rootScript::group).orElse("");
        String version = own.version().or(rootScript::version).orElse("unspecified");
        GradleProject marker = GradleProject.builder()
                .id(randomId())
                .group(group)
                .name(name)
                .version(version)
                .path(isRoot ? ":" : ":" + dir.toString().replace('/', ':'))
                .plugins(descriptors(plugins))
                .mavenRepositories(mavenRepositories)
                .nameToConfiguration(configurations(resolved.requested(), resolved.resolved()))
                .buildscript(buildscript(own, variables, pluginVersions))
                .build();
        String level = own.javaLevel().or(rootScript::javaLevel).orElse(null);
        JavaVersion javaVersion = CompilerSettings.javaVersionMarker(level, level);
        List<Marker> markers = List.of(
                new BuildTool(randomId(), BuildTool.Type.Gradle, gradleVersion),
                new JavaProject(randomId(), name, new JavaProject.Publication(group, name, version)));
        Path scriptPath = script == null ? dir.resolve("build.gradle") : script;
        List<List<Path>> classpaths = classpaths(resolved.resolved(), mavenRepositories);
        Reactor.Module module = new Reactor.Module(
                scriptPath,
                group + ":" + name + ":" + version,
                classpaths.get(0),
                classpaths.get(1),
                resolved.unresolved(),
                markers,
                javaVersion,
                javaVersion,
                siblings(declared),
                null);
        return new Project(dir, script, marker, module);
    }

    /**
     * What applies to a project: its own declarations (for the root, those outside
     * {@code subprojects {}}), and for a subproject what the root gives its subprojects.
     */
    private static <T> List<T> inherited(
            List<T> own, List<T> fromRoot, boolean isRoot, java.util.function.Function<T, GradleScript.Scope> scope) {
        List<T> out = new ArrayList<>();
        own.stream()
                .filter(d -> !isRoot || scope.apply(d).reachesItsOwnProject())
                .forEach(out::add);
        if (!isRoot) {
            fromRoot.stream().filter(d -> scope.apply(d).reachesSubprojects()).forEach(out::add);
        }
        return out;
    }

    /**
     * The buildscript: its repositories and its resolved {@code classpath} configuration, which
     * holds what {@code buildscript { dependencies { classpath … } } } declares and the marker
     * artifact ({@code id:id.gradle.plugin:version}) of every plugin the script's {@code plugins {}}
     * applies with a version, as Gradle resolves them. Recipes read a plugin's version there
     * (RemoveRedundantDependencyVersions takes Spring Boot's BOM version from its marker).
     */
    private GradleBuildscript buildscript(
            GradleScript own, Map<String, String> variables, Map<String, String> pluginVersions) {
        List<MavenRepository> repositories = this.repositories.of(own.buildscriptRepositories());
        List<org.openrewrite.maven.tree.Dependency> requested = new ArrayList<>();
        List<ResolvedDependency> direct = new ArrayList<>();
        if (!own.buildscriptClasspath().isEmpty()) {
            GradleResolution.Resolved classpath = new GradleResolution(
                            downloader, repositories, ctx, warnings, accessDenied, catalog, variables)
                    .resolveAll(own.buildscriptClasspath(), pluginVersions);
            requested.addAll(classpath.requested().getOrDefault("classpath", List.of()));
            direct.addAll(classpath.resolved().getOrDefault("classpath", List.of()));
        }
        for (Plugin plugin : own.plugins()) {
            if (!plugin.version().isEmpty() && plugin.scope() == GradleScript.Scope.OWN) {
                ResolvedDependency marker = pluginMarker(plugin);
                requested.add(marker.getRequested());
                direct.add(marker);
            }
        }
        if (direct.isEmpty()) {
            return new GradleBuildscript(randomId(), repositories, Map.of());
        }
        GradleDependencyConfiguration configuration =
                configuration("classpath", true, new ArrayList<>(), requested, direct);
        return new GradleBuildscript(randomId(), repositories, Map.of("classpath", configuration));
    }

    /**
     * A plugin's marker artifact, named without a download: markers live on the Gradle Plugin
     * Portal, which a static read does not reach, and what recipes read is its coordinates.
     */
    private static ResolvedDependency pluginMarker(Plugin plugin) {
        GroupArtifactVersion gav =
                new GroupArtifactVersion(plugin.id(), plugin.id() + ".gradle.plugin", plugin.version());
        org.openrewrite.maven.tree.Dependency request = org.openrewrite.maven.tree.Dependency.builder()
                .gav(gav)
                .type("pom")
                .scope("classpath")
                .build();
        return ResolvedDependency.builder()
                .repository(GRADLE_PLUGIN_PORTAL)
                .gav(new ResolvedGroupArtifactVersion(
                        GRADLE_PLUGIN_PORTAL.getUri(), gav.getGroupId(), gav.getArtifactId(), gav.getVersion(), null))
                .requested(request)
                .dependencies(List.of())
                .licenses(List.of())
                .type("pom")
                .depth(0)
                .build();
    }

    /** The jars of the main and the test classpath, in that order. */
    private List<List<Path>> classpaths(
            Map<String, List<ResolvedDependency>> resolved, List<MavenRepository> repositories) {
        Set<Path> main = new LinkedHashSet<>();
        Set<Path> test = new LinkedHashSet<>();
        for (Map.Entry<String, List<ResolvedDependency>> byConfiguration : resolved.entrySet()) {
            boolean inMain = MAIN.contains(byConfiguration.getKey());
            boolean inTest = !NOT_TEST.contains(byConfiguration.getKey());
            for (ResolvedDependency direct : byConfiguration.getValue()) {
                for (ResolvedDependency dependency : withTransitive(direct)) {
                    // A jar that cannot be had is not counted: `unresolved` counts declarations.
                    Optional<Path> jar = jars.of(dependency, repositories, Set.of(), new int[1]);
                    if (jar.isPresent() && inMain) {
                        main.add(jar.get());
                    }
                    if (jar.isPresent() && inTest) {
                        test.add(jar.get());
                    }
                }
            }
        }
        return List.of(new ArrayList<>(main), new ArrayList<>(test));
    }

    /** The directories of the projects a project depends on ({@code project(':core')}). */
    private static Set<Path> siblings(List<Declared> declared) {
        Set<Path> siblings = new LinkedHashSet<>();
        for (Declared dependency : declared) {
            if (!dependency.project().isEmpty()) {
                String project = dependency.project().startsWith(":")
                        ? dependency.project().substring(1)
                        : dependency.project();
                siblings.add(Path.of(project.replace(':', '/')));
            }
        }
        return siblings;
    }

    /** A dependency and everything below it, each once. */
    private static List<ResolvedDependency> withTransitive(ResolvedDependency direct) {
        Map<String, ResolvedDependency> all = new LinkedHashMap<>();
        List<ResolvedDependency> queue = new ArrayList<>(List.of(direct));
        while (!queue.isEmpty()) {
            ResolvedDependency next = queue.remove(0);
            if (all.putIfAbsent(next.getGav().toString(), next) == null) {
                queue.addAll(next.getDependencies());
            }
        }
        return List.copyOf(all.values());
    }

    /**
     * The configurations of the marker: each declared one with its requested and resolved
     * dependencies, and the resolvable classpaths extending them (the Java plugin's layout).
     */
    private static Map<String, GradleDependencyConfiguration> configurations(
            Map<String, List<org.openrewrite.maven.tree.Dependency>> requested,
            Map<String, List<ResolvedDependency>> resolved) {
        Map<String, GradleDependencyConfiguration> declared = new LinkedHashMap<>();
        Set<String> names = new LinkedHashSet<>(DECLARED);
        names.addAll(requested.keySet());
        for (String name : names) {
            declared.put(
                    name,
                    configuration(
                            name,
                            false,
                            new ArrayList<>(),
                            requested.getOrDefault(name, List.of()),
                            resolved.getOrDefault(name, List.of())));
        }
        Map<String, GradleDependencyConfiguration> all = new LinkedHashMap<>(declared);
        for (Map.Entry<String, List<String>> classpath : CLASSPATHS.entrySet()) {
            List<GradleDependencyConfiguration> extended = new ArrayList<>();
            List<ResolvedDependency> direct = new ArrayList<>();
            for (String from : classpath.getValue()) {
                GradleDependencyConfiguration parent = declared.get(from);
                if (parent != null) {
                    extended.add(parent);
                    direct.addAll(parent.getDirectResolved());
                }
            }
            all.put(classpath.getKey(), configuration(classpath.getKey(), true, extended, List.of(), direct));
        }
        return all;
    }

    /** A configuration: declarable when not resolvable (the Java plugin's split), never consumed. */
    private static GradleDependencyConfiguration configuration(
            String name,
            boolean resolvable,
            List<GradleDependencyConfiguration> extendsFrom,
            List<org.openrewrite.maven.tree.Dependency> requested,
            List<ResolvedDependency> resolved) {
        return GradleDependencyConfiguration.builder()
                .name(name)
                .isTransitive(true)
                .isCanBeResolved(resolvable)
                .isCanBeConsumed(false)
                .isCanBeDeclared(!resolvable || name.equals("classpath"))
                .extendsFrom(extendsFrom)
                .requested(new ArrayList<>(requested))
                .directResolved(new ArrayList<>(resolved))
                .constraints(new ArrayList<>())
                .attributes(new HashMap<>())
                .build();
    }

    static List<GradlePluginDescriptor> descriptors(List<Plugin> plugins) {
        Map<String, String> classes = Map.of(
                "java", "org.gradle.api.plugins.JavaPlugin",
                "java-library", "org.gradle.api.plugins.JavaLibraryPlugin",
                "application", "org.gradle.api.plugins.ApplicationPlugin",
                "groovy", "org.gradle.api.plugins.GroovyPlugin");
        List<GradlePluginDescriptor> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Plugin plugin : plugins) {
            if (seen.add(plugin.id())) {
                out.add(new GradlePluginDescriptor(classes.getOrDefault(plugin.id(), plugin.id()), plugin.id()));
            }
        }
        return out;
    }

    static Map<String, String> properties(Path file) throws IOException {
        Map<String, String> out = new HashMap<>();
        if (!Files.isRegularFile(file)) {
            return out;
        }
        Properties properties = new Properties();
        try (var reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        properties.forEach((k, v) -> out.put(k.toString(), v.toString().strip()));
        return out;
    }
}
