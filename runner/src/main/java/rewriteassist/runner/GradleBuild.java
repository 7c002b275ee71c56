package rewriteassist.runner;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.SourceFile;
import org.openrewrite.gradle.marker.GradleBuildscript;
import org.openrewrite.gradle.marker.GradleDependencyConfiguration;
import org.openrewrite.gradle.marker.GradlePluginDescriptor;
import org.openrewrite.gradle.marker.GradleProject;
import org.openrewrite.gradle.marker.GradleSettings;
import org.openrewrite.java.marker.JavaProject;
import org.openrewrite.java.marker.JavaVersion;
import org.openrewrite.marker.BuildTool;
import org.openrewrite.marker.Marker;
import org.openrewrite.maven.MavenDownloadingException;
import org.openrewrite.maven.internal.MavenPomDownloader;
import org.openrewrite.maven.tree.Dependency;
import org.openrewrite.maven.tree.GroupArtifactVersion;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.maven.tree.ResolvedDependency;
import org.openrewrite.maven.tree.ResolvedManagedDependency;
import org.openrewrite.maven.tree.ResolvedPom;
import org.openrewrite.maven.tree.Scope;

/**
 * Gradle's model without Gradle. OpenRewrite's Gradle recipes ({@code ChangeDependency},
 * {@code UpgradeDependencyVersion}, {@code AddDependency}, …) need a {@link GradleProject} marker on
 * the build script, which normally comes from running the build with Gradle's tooling API. We read
 * the scripts instead ({@link GradleScript}): the projects {@code settings.gradle} includes, their
 * plugins, repositories and declared dependencies, versions from {@code gradle.properties}, the
 * scripts' own variables and the version catalog, and versions a platform or the Spring Boot plugin
 * manages. The declared dependencies are resolved with rewrite-maven's downloader, which gives the
 * markers their resolved dependencies and the Java sources their classpath. What a static read
 * cannot see (logic in the scripts, convention plugins in {@code buildSrc}, included builds) is a
 * warning, never a failure.
 */
final class GradleBuild {
    /** A project of the build: its directory, build script, marker and module. */
    private record Project(Path dir, Path script, GradleProject marker, Reactor.Module module) {}

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

    private static final Map<String, List<String>> CLASSPATHS = Map.of(
            "compileClasspath", List.of("compileOnly", "implementation", "api"),
            "runtimeClasspath", List.of("runtimeOnly", "implementation", "api"),
            "testCompileClasspath", List.of("testCompileOnly", "testImplementation", "implementation", "api"),
            "testRuntimeClasspath",
                    List.of("testRuntimeOnly", "testImplementation", "runtimeOnly", "implementation", "api"));

    /** Configurations on the main compile classpath (the others are test-only or runtime-only). */
    private static final Set<String> MAIN = Set.of("api", "implementation", "compileOnly", "compile", "provided");

    private static final Pattern DISTRIBUTION = Pattern.compile("gradle-([0-9][0-9.]*[0-9])-(?:bin|all)\\.zip");

    /** The Gradle version in {@link BuildTool} when the wrapper does not say. */
    static final String GRADLE_VERSION = "8.14";

    private final List<Project> projects;
    private final Path settingsScript;
    private final GradleSettings settings;
    private final Map<Path, String> gavs;

    private GradleBuild(List<Project> projects, Path settingsScript, GradleSettings settings, Map<Path, String> gavs) {
        this.projects = projects;
        this.settingsScript = settingsScript;
        this.settings = settings;
        this.gavs = gavs;
    }

    static GradleBuild none() {
        return new GradleBuild(List.of(), null, null, Map.of());
    }

    /**
     * The build whose scripts are {@code scripts} (paths under {@code root}); {@link #none()} when
     * there are none.
     */
    static GradleBuild read(Path root, List<Path> scripts, RepositoryPolicy policy, Parse.Warnings warnings)
            throws IOException {
        if (scripts.isEmpty()) {
            return none();
        }
        long started = System.nanoTime();
        Path settingsFile = null;
        List<Path> buildScripts = new ArrayList<>();
        for (Path script : scripts) {
            String name = script.getFileName().toString();
            if (name.equals("settings.gradle") || name.equals("settings.gradle.kts")) {
                if (root.relativize(script).getParent() == null) {
                    settingsFile = script;
                }
            } else if (name.endsWith(".gradle") || name.endsWith(".gradle.kts")) {
                buildScripts.add(script);
            }
        }
        String settingsText = settingsFile == null ? "" : scriptText(settingsFile);
        GradleScript.Settings settings = GradleScript.Settings.read(settingsText);
        GradleScript settingsScript = GradleScript.read(settingsText);
        for (String build : settings.includedBuilds()) {
            warnings.add("gradle: included build " + build + " is not read (a build of its own); its projects "
                    + "are not part of the model");
        }
        if (Files.isDirectory(root.resolve("buildSrc"))) {
            warnings.add("gradle: buildSrc is not read: plugins and dependencies its convention plugins add are "
                    + "missing from the model");
        }
        Path catalogFile = root.resolve("gradle/libs.versions.toml");
        // Read even past the TOML parser's budget (this reading is linear), but not past its size.
        GradleCatalog catalog = Files.isRegularFile(catalogFile) && Files.size(catalogFile) <= FileBudget.MAX_BYTES
                ? GradleCatalog.read(Files.readString(catalogFile, StandardCharsets.UTF_8))
                : GradleCatalog.empty();
        String gradleVersion = wrapperVersion(root);

        // The scripts that are projects: every build.gradle(.kts) the settings include, and the root's.
        Map<Path, Path> scriptByDir = new LinkedHashMap<>();
        for (Path script : buildScripts) {
            String name = script.getFileName().toString();
            if (!name.equals("build.gradle") && !name.equals("build.gradle.kts")) {
                continue;
            }
            Path dir = root.relativize(script).getParent() == null
                    ? Path.of("")
                    : root.relativize(script).getParent();
            if (dir.startsWith("buildSrc")) {
                continue;
            }
            scriptByDir.putIfAbsent(dir, script);
        }
        for (String included : settings.projects()) {
            Path dir = Path.of(included);
            if (!scriptByDir.containsKey(dir) && Files.isDirectory(root.resolve(dir))) {
                // A project without a script of its own: what the root gives its subprojects.
                scriptByDir.put(dir, null);
            }
        }
        if (scriptByDir.isEmpty() && settingsFile == null) {
            return none();
        }

        Map<String, String> rootProperties = properties(root.resolve("gradle.properties"));
        Path rootScriptFile = scriptByDir.get(Path.of(""));
        GradleScript rootScript =
                rootScriptFile == null ? GradleScript.read("") : GradleScript.read(scriptText(rootScriptFile));

        ExecutionContext ctx = Reactor.configureWithoutMavenSettings(
                new InMemoryExecutionContext(t -> Main.log("gradle: " + Main.oneLine(t))), policy);
        MavenPomDownloader downloader = new MavenPomDownloader(ctx);
        Reactor.Jars jars = new Reactor.Jars(policy, warnings, ctx, null);
        Set<String> reactorProjects = new LinkedHashSet<>();
        List<Project> projects = new ArrayList<>();
        for (Map.Entry<Path, Path> entry : scriptByDir.entrySet()) {
            Path dir = entry.getKey();
            boolean isRoot = dir.toString().isEmpty();
            GradleScript own = entry.getValue() == null
                    ? GradleScript.read("")
                    : isRoot ? rootScript : GradleScript.read(scriptText(entry.getValue()));
            String name = isRoot
                    ? (settings.rootName() == null ? root.getFileName().toString() : settings.rootName())
                    : dir.getFileName().toString();
            reactorProjects.add(name);
            Map<String, String> variables = new HashMap<>(rootProperties);
            variables.putAll(rootScript.variables());
            variables.putAll(properties(root.resolve(dir).resolve("gradle.properties")));
            variables.putAll(own.variables());

            List<GradleScript.Plugin> plugins = new ArrayList<>();
            List<GradleScript.Repository> repositories = new ArrayList<>(settingsScript.repositories());
            List<GradleScript.Declared> declared = new ArrayList<>();
            for (GradleScript.Plugin plugin : own.plugins()) {
                if (!isRoot || plugin.scope().reachesItsOwnProject()) {
                    plugins.add(plugin);
                }
            }
            for (GradleScript.Repository repository : own.repositories()) {
                if (!isRoot || repository.scope().reachesItsOwnProject()) {
                    repositories.add(repository);
                }
            }
            for (GradleScript.Declared dependency : own.dependencies()) {
                if (!isRoot || dependency.scope().reachesItsOwnProject()) {
                    declared.add(dependency);
                }
            }
            if (!isRoot) {
                rootScript.plugins().stream()
                        .filter(p -> p.scope().reachesSubprojects())
                        .forEach(plugins::add);
                rootScript.repositories().stream()
                        .filter(r -> r.scope().reachesSubprojects())
                        .forEach(repositories::add);
                rootScript.dependencies().stream()
                        .filter(d -> d.scope().reachesSubprojects())
                        .forEach(declared::add);
            }
            for (String line : own.unread()) {
                warnings.add("gradle: " + (isRoot ? "" : dir + "/") + "build script: not read statically: " + line);
            }
            // A plugin applied without a version takes the one the root's plugins block gives it.
            Map<String, String> pluginVersions = new HashMap<>();
            rootScript.plugins().forEach(p -> pluginVersions.put(p.id(), p.version()));
            plugins.forEach(p -> {
                if (!p.version().isEmpty()) {
                    pluginVersions.put(p.id(), p.version());
                }
            });
            List<MavenRepository> mavenRepositories = mavenRepositories(repositories);

            Resolution resolution = new Resolution(downloader, mavenRepositories, ctx, warnings, catalog, variables);
            resolution.managedBy(plugins, pluginVersions, declared);
            Map<String, List<Dependency>> requested = new LinkedHashMap<>();
            Map<String, List<ResolvedDependency>> resolved = new LinkedHashMap<>();
            int unresolved = 0;
            for (GradleScript.Declared dependency : declared) {
                if (!dependency.project().isEmpty()) {
                    continue;
                }
                Optional<GroupArtifactVersion> gav = resolution.coordinates(dependency, pluginVersions);
                if (gav.isEmpty()) {
                    unresolved++;
                    continue;
                }
                Dependency request = Dependency.builder()
                        .gav(gav.get())
                        .type(dependency.platform() ? "pom" : "jar")
                        .scope(dependency.configuration())
                        .build();
                requested
                        .computeIfAbsent(dependency.configuration(), k -> new ArrayList<>())
                        .add(request);
                Optional<ResolvedDependency> found = resolution.resolve(request);
                if (found.isPresent()) {
                    resolved.computeIfAbsent(dependency.configuration(), k -> new ArrayList<>())
                            .add(found.get());
                } else {
                    unresolved++;
                }
            }

            Set<Path> siblings = new LinkedHashSet<>();
            for (GradleScript.Declared dependency : declared) {
                if (!dependency.project().isEmpty()) {
                    String project = dependency.project().startsWith(":")
                            ? dependency.project().substring(1)
                            : dependency.project();
                    siblings.add(Path.of(project.replace(':', '/')));
                }
            }
            List<Path> mainJars = new ArrayList<>();
            List<Path> testJars = new ArrayList<>();
            for (Map.Entry<String, List<ResolvedDependency>> byConfiguration : resolved.entrySet()) {
                boolean main = MAIN.contains(byConfiguration.getKey());
                boolean test = !byConfiguration.getKey().equals("annotationProcessor")
                        && !byConfiguration.getKey().equals("testAnnotationProcessor")
                        && !byConfiguration.getKey().equals("developmentOnly");
                for (ResolvedDependency direct : byConfiguration.getValue()) {
                    for (ResolvedDependency dependency : withTransitive(direct)) {
                        // A jar that cannot be had is not counted: `unresolved` counts declarations.
                        Optional<Path> jar = jars.of(dependency, mavenRepositories, Set.of(), new int[1]);
                        if (jar.isPresent()) {
                            if (main) {
                                mainJars.add(jar.get());
                            }
                            if (test) {
                                testJars.add(jar.get());
                            }
                        }
                    }
                }
            }

            String group = own.group().or(rootScript::group).orElse("");
            String version = own.version().or(rootScript::version).orElse("unspecified");
            String path = isRoot ? ":" : ":" + dir.toString().replace('/', ':');
            GradleProject marker = GradleProject.builder()
                    .id(randomId())
                    .group(group)
                    .name(name)
                    .version(version)
                    .path(path)
                    .plugins(descriptors(plugins))
                    .mavenRepositories(mavenRepositories)
                    .nameToConfiguration(configurations(requested, resolved))
                    .buildscript(new GradleBuildscript(randomId(), List.of(MavenRepository.MAVEN_CENTRAL), Map.of()))
                    .build();
            String level = own.javaLevel().or(rootScript::javaLevel).orElse(null);
            JavaVersion javaVersion = Reactor.javaVersionMarker(level, level);
            List<Marker> markers = List.of(
                    new BuildTool(randomId(), BuildTool.Type.Gradle, gradleVersion),
                    new JavaProject(randomId(), name, new JavaProject.Publication(group, name, version)));
            Path scriptPath =
                    entry.getValue() == null ? dir.resolve("build.gradle") : root.relativize(entry.getValue());
            Reactor.Module module = new Reactor.Module(
                    scriptPath,
                    group + ":" + name + ":" + version,
                    new ArrayList<>(new LinkedHashSet<>(mainJars)),
                    new ArrayList<>(new LinkedHashSet<>(testJars)),
                    unresolved,
                    markers,
                    javaVersion,
                    javaVersion,
                    siblings,
                    null);
            projects.add(new Project(dir, entry.getValue() == null ? null : scriptPath, marker, module));
        }
        GradleSettings settingsMarker = GradleSettings.builder()
                .id(randomId())
                .plugins(descriptors(settingsScript.plugins()))
                .featurePreviews(Map.of())
                .buildscript(new GradleBuildscript(randomId(), List.of(MavenRepository.MAVEN_CENTRAL), Map.of()))
                .build();
        Main.log("  gradle: " + projects.size() + " projects, " + jars.count() + " jars in " + Main.seconds(started)
                + " s");
        return new GradleBuild(
                projects, settingsFile == null ? null : root.relativize(settingsFile), settingsMarker, jars.gavs);
    }

    /** The modules for {@link Reactor#mark}: markers and classpaths of each project's sources. */
    Map<Path, Reactor.Module> modules() {
        Map<Path, Reactor.Module> out = new LinkedHashMap<>();
        projects.forEach(p -> out.put(p.dir(), p.module()));
        return out;
    }

    Map<Path, String> gavs() {
        return gavs;
    }

    /** The trees with each build script's {@link GradleProject} and the settings' {@link GradleSettings}. */
    List<SourceFile> mark(List<SourceFile> trees) {
        if (projects.isEmpty() && settingsScript == null) {
            return trees;
        }
        Map<Path, GradleProject> byScript = new HashMap<>();
        projects.stream().filter(p -> p.script() != null).forEach(p -> byScript.put(p.script(), p.marker()));
        List<SourceFile> out = new ArrayList<>(trees.size());
        for (SourceFile tree : trees) {
            GradleProject marker = byScript.get(tree.getSourcePath());
            if (marker != null) {
                tree = tree.withMarkers(
                        tree.getMarkers().removeByType(GradleProject.class).add(marker));
            } else if (tree.getSourcePath().equals(settingsScript)) {
                tree = tree.withMarkers(
                        tree.getMarkers().removeByType(GradleSettings.class).add(settings));
            }
            out.add(tree);
        }
        return out;
    }

    /** Resolves declared dependencies: coordinates, managed versions, and the POMs behind them. */
    private static final class Resolution {
        private final MavenPomDownloader downloader;
        private final List<MavenRepository> repositories;
        private final ExecutionContext ctx;
        private final Parse.Warnings warnings;
        private final GradleCatalog catalog;
        private final Map<String, String> variables;
        private final Map<String, String> managed = new HashMap<>();

        Resolution(
                MavenPomDownloader downloader,
                List<MavenRepository> repositories,
                ExecutionContext ctx,
                Parse.Warnings warnings,
                GradleCatalog catalog,
                Map<String, String> variables) {
            this.downloader = downloader;
            this.repositories = repositories;
            this.ctx = ctx;
            this.warnings = warnings;
            this.catalog = catalog;
            this.variables = variables;
        }

        /**
         * Versions the build manages: the BOMs of declared platforms, and Spring Boot's when its
         * plugin is applied (its dependency management imports {@code spring-boot-dependencies}).
         */
        void managedBy(
                List<GradleScript.Plugin> plugins,
                Map<String, String> pluginVersions,
                List<GradleScript.Declared> declared) {
            List<GroupArtifactVersion> boms = new ArrayList<>();
            for (GradleScript.Declared dependency : declared) {
                if (dependency.platform()) {
                    coordinates(dependency, pluginVersions)
                            .filter(g -> g.getVersion() != null)
                            .ifPresent(boms::add);
                }
            }
            boolean boot = plugins.stream().anyMatch(p -> p.id().equals("org.springframework.boot"));
            String bootVersion = pluginVersions.getOrDefault("org.springframework.boot", "");
            if (boot && !bootVersion.isEmpty()) {
                boms.add(new GroupArtifactVersion("org.springframework.boot", "spring-boot-dependencies", bootVersion));
            }
            for (GroupArtifactVersion bom : boms) {
                try {
                    ResolvedPom pom = downloader
                            .download(bom, null, null, repositories)
                            .resolve(List.of(), downloader, repositories, ctx);
                    for (ResolvedManagedDependency managedDependency : pom.getDependencyManagement()) {
                        managed.putIfAbsent(
                                managedDependency.getGroupId() + ":" + managedDependency.getArtifactId(),
                                managedDependency.getVersion());
                    }
                } catch (MavenDownloadingException | RuntimeException e) {
                    warnings.add("gradle: the versions " + bom + " manages are unknown: " + Main.oneLine(e));
                }
            }
        }

        /** The coordinates a declaration names, its version filled in; empty when unknown. */
        Optional<GroupArtifactVersion> coordinates(
                GradleScript.Declared dependency, Map<String, String> pluginVersions) {
            String group = dependency.group();
            String artifact = dependency.artifact();
            String version = dependency.version();
            if (!dependency.catalogAlias().isEmpty()) {
                Optional<GradleCatalog.Entry> entry = catalog.library(dependency.catalogAlias());
                if (entry.isEmpty()) {
                    warnings.add("gradle: libs." + dependency.catalogAlias() + " is not in gradle/libs.versions.toml");
                    return Optional.empty();
                }
                group = entry.get().group();
                artifact = entry.get().artifact();
                version = entry.get().version();
            }
            Optional<String> filled = GradleScript.interpolated(version, variables);
            if (filled.isEmpty()) {
                warnings.add("gradle: the version of " + group + ":" + artifact + " (" + version + ") is computed by "
                        + "the script: not known statically");
                return Optional.empty();
            }
            version = filled.get();
            if (version.isEmpty()) {
                version = managed.getOrDefault(group + ":" + artifact, "");
            }
            if (version.isEmpty() && group.equals("org.jetbrains.kotlin")) {
                version = pluginVersions.getOrDefault("org.jetbrains.kotlin.jvm", "");
            }
            if (version.isEmpty()) {
                warnings.add("gradle: no version known for " + group + ":" + artifact);
                return Optional.empty();
            }
            return Optional.of(new GroupArtifactVersion(group, artifact, version));
        }

        Optional<ResolvedDependency> resolve(Dependency request) {
            try {
                ResolvedPom pom = downloader
                        .download(request.getGav(), null, null, repositories)
                        .resolve(List.of(), downloader, repositories, ctx);
                List<ResolvedDependency> transitive = request.getType().equals("pom")
                        ? List.of()
                        : pom.resolveDependencies(Scope.Runtime, downloader, ctx);
                return Optional.of(ResolvedDependency.builder()
                        .repository(pom.getRepositories().isEmpty() ? MavenRepository.MAVEN_CENTRAL : repositoryOf(pom))
                        .gav(pom.getGav())
                        .requested(request)
                        .dependencies(transitive)
                        .licenses(List.of())
                        .type(request.getType())
                        .depth(0)
                        .build());
            } catch (Exception e) {
                warnings.add("gradle: " + request.getGav() + " not resolved: " + Main.oneLine(e));
                return Optional.empty();
            }
        }

        private MavenRepository repositoryOf(ResolvedPom pom) {
            String repository = pom.getGav().getRepository();
            return repositories.stream()
                    .filter(r -> r.getUri().equals(repository))
                    .findFirst()
                    .orElse(MavenRepository.MAVEN_CENTRAL);
        }
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
            Map<String, List<Dependency>> requested, Map<String, List<ResolvedDependency>> resolved) {
        Map<String, GradleDependencyConfiguration> declared = new LinkedHashMap<>();
        Set<String> names = new LinkedHashSet<>(DECLARED);
        names.addAll(requested.keySet());
        for (String name : names) {
            declared.put(
                    name,
                    GradleDependencyConfiguration.builder()
                            .name(name)
                            .isTransitive(true)
                            .isCanBeResolved(false)
                            .isCanBeConsumed(false)
                            .isCanBeDeclared(true)
                            .extendsFrom(new ArrayList<>())
                            .requested(new ArrayList<>(requested.getOrDefault(name, List.of())))
                            .directResolved(new ArrayList<>(resolved.getOrDefault(name, List.of())))
                            .constraints(new ArrayList<>())
                            .attributes(new HashMap<>())
                            .build());
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
            all.put(
                    classpath.getKey(),
                    GradleDependencyConfiguration.builder()
                            .name(classpath.getKey())
                            .isTransitive(true)
                            .isCanBeResolved(true)
                            .isCanBeConsumed(false)
                            .isCanBeDeclared(false)
                            .extendsFrom(extended)
                            .requested(new ArrayList<>())
                            .directResolved(direct)
                            .constraints(new ArrayList<>())
                            .attributes(new HashMap<>())
                            .build());
        }
        return all;
    }

    private static List<GradlePluginDescriptor> descriptors(List<GradleScript.Plugin> plugins) {
        Map<String, String> classes = Map.of(
                "java", "org.gradle.api.plugins.JavaPlugin",
                "java-library", "org.gradle.api.plugins.JavaLibraryPlugin",
                "application", "org.gradle.api.plugins.ApplicationPlugin",
                "groovy", "org.gradle.api.plugins.GroovyPlugin");
        List<GradlePluginDescriptor> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (GradleScript.Plugin plugin : plugins) {
            if (seen.add(plugin.id())) {
                out.add(new GradlePluginDescriptor(classes.getOrDefault(plugin.id(), plugin.id()), plugin.id()));
            }
        }
        return out;
    }

    /** The build's repositories; Maven Central when it names none that the runner can use. */
    private static List<MavenRepository> mavenRepositories(List<GradleScript.Repository> repositories) {
        Map<String, MavenRepository> out = new LinkedHashMap<>();
        for (GradleScript.Repository repository : repositories) {
            String url = repository.url();
            if (url.equals(MavenRepository.MAVEN_CENTRAL.getUri())) {
                out.put(url, MavenRepository.MAVEN_CENTRAL);
            } else if (url.startsWith("http") || url.startsWith("file:")) {
                out.putIfAbsent(
                        url,
                        MavenRepository.builder()
                                .id(url)
                                .uri(url)
                                .releases(true)
                                .snapshots(true)
                                .build());
            }
        }
        out.putIfAbsent(MavenRepository.MAVEN_CENTRAL.getUri(), MavenRepository.MAVEN_CENTRAL);
        return List.copyOf(out.values());
    }

    /**
     * A script's text, or nothing for a script over its {@link FileBudget}: the parse keeps that
     * one as plain text and names it in the warnings, and the model goes without it.
     */
    private static String scriptText(Path script) throws IOException {
        return FileBudget.exceeded(script) == null ? Files.readString(script, StandardCharsets.UTF_8) : "";
    }

    private static Map<String, String> properties(Path file) throws IOException {
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

    /** The Gradle version the wrapper names, else {@link #GRADLE_VERSION}. */
    private static String wrapperVersion(Path root) throws IOException {
        Path file = root.resolve("gradle/wrapper/gradle-wrapper.properties");
        if (Files.isRegularFile(file)) {
            Matcher version = DISTRIBUTION.matcher(Files.readString(file, StandardCharsets.UTF_8));
            if (version.find()) {
                return version.group(1);
            }
        }
        return GRADLE_VERSION;
    }
}
