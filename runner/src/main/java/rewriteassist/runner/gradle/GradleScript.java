package rewriteassist.runner.gradle;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.openrewrite.java.tree.JavaSourceFile;

/**
 * What a Gradle build script declares, read from its parsed tree (Groovy {@code G.CompilationUnit}
 * or Kotlin {@code K.CompilationUnit}) without running it ({@link GradleScriptReader}): plugins,
 * repositories, dependencies by configuration, the buildscript's own repositories and classpath,
 * the variables its versions use, its group and version, and its Java level. Gradle's model comes
 * from running the scripts; we cannot (no Gradle distribution, and repository code must not run),
 * so this reads what is written in the common forms. What a static read cannot see — logic in the
 * script, convention plugins in {@code buildSrc}, included builds — is missed, and the caller warns
 * about it.
 */
public record GradleScript(
        List<Plugin> plugins,
        List<Repository> repositories,
        List<Declared> dependencies,
        List<Repository> buildscriptRepositories,
        List<Declared> buildscriptClasspath,
        Map<String, String> variables,
        Optional<String> group,
        Optional<String> version,
        Optional<String> javaLevel,
        List<String> unread) {

    /**
     * Where a declaration applies: the script's own project, or (in the root script's
     * {@code subprojects {}} and {@code allprojects {}} blocks) every subproject, or every project.
     */
    enum Scope {
        OWN,
        SUBPROJECTS,
        ALLPROJECTS;

        boolean reachesSubprojects() {
            return this != OWN;
        }

        boolean reachesItsOwnProject() {
            return this != SUBPROJECTS;
        }
    }

    /** A plugin by id, with the version the script asks for (empty when the build already has it). */
    public record Plugin(String id, String version, Scope scope) {}

    /**
     * A repository: its URL, its name ({@code name = "…"}, empty when none) and the credentials its
     * {@code maven { }} block declares.
     */
    record Repository(String url, Scope scope, String name, Optional<GradleCredentials> credentials) {
        Repository(String url, Scope scope) {
            this(url, scope, "", Optional.empty());
        }
    }

    /**
     * A dependency as declared: its configuration and notation. {@code version} is empty when the
     * script gives none (a platform or plugin manages it) and may reference the script's variables
     * as {@code ${name}} ({@link GradleValues#interpolated}); {@code project} names a project
     * dependency ({@code project(':core')}), {@code catalogAlias} a version catalog entry
     * ({@code libs.foo.bar}).
     */
    public record Declared(
            String configuration,
            String group,
            String artifact,
            String version,
            boolean platform,
            String project,
            String catalogAlias,
            Scope scope) {
        public String ga() {
            return group + ":" + artifact;
        }
    }

    /** A script with nothing in it: a project without a script, or one that did not parse. */
    public static GradleScript empty() {
        return new GradleScript(
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                Map.of(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                List.of());
    }

    /** The script's declarations; {@link #empty()} for no tree. */
    public static GradleScript read(@Nullable JavaSourceFile tree, GradleCatalog catalog) {
        return tree == null ? empty() : GradleScriptReader.read(tree, catalog);
    }

    /** The settings script: the projects it includes and the builds it includes (which we skip). */
    public record Settings(@Nullable String rootName, List<String> projects, List<String> includedBuilds) {
        public static Settings read(@Nullable JavaSourceFile tree) {
            return tree == null ? new Settings(null, List.of(), List.of()) : GradleSettingsReader.read(tree);
        }
    }
}
