package rewriteassist.runner.gradle;

import static org.openrewrite.Tree.randomId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.SourceFile;
import org.openrewrite.gradle.marker.GradleBuildscript;
import org.openrewrite.gradle.marker.GradleProject;
import org.openrewrite.gradle.marker.GradleSettings;
import org.openrewrite.java.tree.JavaSourceFile;
import org.openrewrite.maven.tree.MavenRepository;
import org.openrewrite.toml.tree.Toml;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.maven.Jars;
import rewriteassist.runner.maven.MavenContexts;
import rewriteassist.runner.maven.Reactor;
import rewriteassist.runner.net.RepositoryPolicy;
import rewriteassist.runner.parse.RepositoryParser;

/**
 * Gradle's model without Gradle. OpenRewrite's Gradle recipes ({@code ChangeDependency},
 * {@code UpgradeDependencyVersion}, {@code AddDependency}, …) need a {@link GradleProject} marker on
 * the build script, which normally comes from running the build with Gradle's tooling API. We read
 * the scripts' parsed trees instead ({@link GradleScript}): the projects {@code settings.gradle}
 * includes, their plugins, repositories and declared dependencies, the buildscript's classpath,
 * versions from {@code gradle.properties}, the scripts' own variables and the version catalog's
 * TOML document ({@link GradleCatalog}), and versions a platform or the Spring Boot plugin manages.
 * The declared dependencies are resolved with rewrite-maven's downloader
 * ({@link GradleProjectReader}), which gives the markers their resolved dependencies and the Java
 * sources their classpath. What a static read cannot see (logic in the scripts, convention plugins
 * in {@code buildSrc}, included builds) is a warning, never a failure.
 */
public final class GradleBuild {
    /** The version catalog the scripts' {@code libs.*} names. */
    static final Path CATALOG = Path.of("gradle/libs.versions.toml");

    /** The Gradle version in {@link org.openrewrite.marker.BuildTool} when the wrapper does not say. */
    static final String GRADLE_VERSION = "8.14";

    private final List<GradleProjectReader.Project> projects;
    private final @Nullable Path settingsScript;
    private final @Nullable GradleSettings settings;
    private final Map<Path, String> gavs;

    private GradleBuild(
            List<GradleProjectReader.Project> projects,
            @Nullable Path settingsScript,
            @Nullable GradleSettings settings,
            Map<Path, String> gavs) {
        this.projects = projects;
        this.settingsScript = settingsScript;
        this.settings = settings;
        this.gavs = gavs;
    }

    static GradleBuild none() {
        return new GradleBuild(List.of(), null, null, Map.of());
    }

    /**
     * The build whose scripts' trees are {@code scripts} (source paths relative to {@code root}; a
     * script the parser could not take is plain text and reads as empty), with the catalog among
     * {@code resources}; {@link #none()} when there are no scripts.
     */
    public static GradleBuild read(
            Path root,
            List<SourceFile> scripts,
            List<SourceFile> resources,
            RepositoryPolicy policy,
            RepositoryParser.Warnings warnings)
            throws IOException {
        long started = System.nanoTime();
        Map<Path, @Nullable JavaSourceFile> trees = new LinkedHashMap<>();
        scripts.forEach(s -> trees.put(s.getSourcePath(), s instanceof JavaSourceFile tree ? tree : null));
        Path settingsPath = settingsPath(trees);
        Map<Path, @Nullable Path> scriptByDir = projectScripts(trees);
        if (scriptByDir.isEmpty() && settingsPath == null) {
            return none();
        }
        GradleCatalog catalog = catalog(resources, warnings);
        JavaSourceFile settingsTree = settingsPath == null ? null : trees.get(settingsPath);
        GradleScript.Settings settings = GradleScript.Settings.read(settingsTree);
        warnAboutOtherBuilds(root, settings, warnings);
        for (String included : settings.projects()) {
            if (!scriptByDir.containsKey(Path.of(included)) && Files.isDirectory(root.resolve(included))) {
                // A project without a script of its own: what the root gives its subprojects.
                scriptByDir.put(Path.of(included), null);
            }
        }
        Path rootScriptPath = scriptByDir.get(Path.of(""));
        GradleScript rootScript = GradleScript.read(rootScriptPath == null ? null : trees.get(rootScriptPath), catalog);
        GradleScript settingsScript = GradleScript.read(settingsTree, catalog);
        ExecutionContext ctx = MavenContexts.configureWithoutMavenSettings(
                new InMemoryExecutionContext(t -> Log.log("gradle: " + Log.oneLine(t))), policy);
        Jars jars = new Jars(policy, warnings, ctx, policy.accessDenied());
        String rootName = settings.rootName() == null ? root.getFileName().toString() : settings.rootName();
        GradleRepositories repositories =
                new GradleRepositories(GradleProperties.read(root, System.getenv()), policy, ctx);
        GradleProjectReader reader = new GradleProjectReader(
                root,
                rootName,
                rootScript,
                settingsScript,
                catalog,
                wrapperVersion(root),
                ctx,
                jars,
                warnings,
                repositories,
                policy.accessDenied());
        List<GradleProjectReader.Project> projects = new ArrayList<>();
        for (Map.Entry<Path, @Nullable Path> entry : scriptByDir.entrySet()) {
            Path script = entry.getValue();
            GradleScript own = entry.getKey().toString().isEmpty()
                    ? rootScript
                    : GradleScript.read(script == null ? null : trees.get(script), catalog);
            projects.add(reader.project(entry.getKey(), script, own));
        }
        GradleSettings settingsMarker = GradleSettings.builder()
                .id(randomId())
                .plugins(GradleProjectReader.descriptors(settingsScript.plugins()))
                .featurePreviews(Map.of())
                .buildscript(new GradleBuildscript(randomId(), List.of(MavenRepository.MAVEN_CENTRAL), Map.of()))
                .build();
        Log.log("  gradle: " + projects.size() + " projects, " + jars.count() + " jars in " + Log.seconds(started)
                + " s");
        return new GradleBuild(projects, settingsPath, settingsMarker, jars.gavs);
    }

    /** The root's settings script, if there is one. */
    private static @Nullable Path settingsPath(Map<Path, @Nullable JavaSourceFile> trees) {
        for (Path script : trees.keySet()) {
            String name = script.getFileName().toString();
            if (script.getParent() == null && (name.equals("settings.gradle") || name.equals("settings.gradle.kts"))) {
                return script;
            }
        }
        return null;
    }

    /** The scripts that are projects, by directory: every {@code build.gradle(.kts)} outside {@code buildSrc}. */
    private static Map<Path, @Nullable Path> projectScripts(Map<Path, @Nullable JavaSourceFile> trees) {
        Map<Path, @Nullable Path> scriptByDir = new LinkedHashMap<>();
        for (Path script : trees.keySet()) {
            String name = script.getFileName().toString();
            Path dir = script.getParent() == null ? Path.of("") : script.getParent();
            if ((name.equals("build.gradle") || name.equals("build.gradle.kts")) && !dir.startsWith("buildSrc")) {
                scriptByDir.putIfAbsent(dir, script);
            }
        }
        return scriptByDir;
    }

    private static void warnAboutOtherBuilds(
            Path root, GradleScript.Settings settings, RepositoryParser.Warnings warnings) {
        for (String build : settings.includedBuilds()) {
            warnings.add("gradle: included build " + build + " is not read (a build of its own); its projects "
                    + "are not part of the model");
        }
        if (Files.isDirectory(root.resolve("buildSrc"))) {
            warnings.add("gradle: buildSrc is not read: plugins and dependencies its convention plugins add are "
                    + "missing from the model");
        }
    }

    /** The version catalog from its parsed document; empty when there is none or it did not parse. */
    private static GradleCatalog catalog(List<SourceFile> resources, RepositoryParser.Warnings warnings) {
        for (SourceFile resource : resources) {
            if (resource.getSourcePath().equals(CATALOG)) {
                if (resource instanceof Toml.Document toml) {
                    return GradleCatalog.read(toml);
                }
                warnings.add("gradle: " + CATALOG + " is not parsed as TOML: the libs.* it names are unknown");
            }
        }
        return GradleCatalog.empty();
    }

    /** The Gradle version the wrapper's {@code distributionUrl} names, else {@link #GRADLE_VERSION}. */
    private static String wrapperVersion(Path root) throws IOException {
        String url = GradleProjectReader.properties(root.resolve("gradle/wrapper/gradle-wrapper.properties"))
                .getOrDefault("distributionUrl", "");
        String file = url.substring(url.lastIndexOf('/') + 1);
        for (String suffix : List.of("-bin.zip", "-all.zip")) {
            if (file.startsWith("gradle-") && file.endsWith(suffix)) {
                String version = file.substring("gradle-".length(), file.length() - suffix.length());
                return version.isEmpty() ? GRADLE_VERSION : version;
            }
        }
        return GRADLE_VERSION;
    }

    /** The modules for {@link Reactor#mark}: markers and classpaths of each project's sources. */
    public Map<Path, Reactor.Module> modules() {
        Map<Path, Reactor.Module> out = new LinkedHashMap<>();
        projects.forEach(p -> out.put(p.dir(), p.module()));
        return out;
    }

    public Map<Path, String> gavs() {
        return gavs;
    }

    /** The trees with each build script's {@link GradleProject} and the settings' {@link GradleSettings}. */
    public List<SourceFile> mark(List<SourceFile> trees) {
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
            } else if (settings != null && tree.getSourcePath().equals(settingsScript)) {
                tree = tree.withMarkers(
                        tree.getMarkers().removeByType(GradleSettings.class).add(settings));
            }
            out.add(tree);
        }
        return out;
    }
}
