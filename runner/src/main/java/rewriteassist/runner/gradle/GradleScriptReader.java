package rewriteassist.runner.gradle;

import static org.openrewrite.Tree.randomId;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Cursor;
import org.openrewrite.gradle.marker.GradleBuildscript;
import org.openrewrite.gradle.marker.GradleDependencyConfiguration;
import org.openrewrite.gradle.marker.GradleProject;
import org.openrewrite.gradle.trait.ExtraProperty;
import org.openrewrite.gradle.trait.GradleDependency;
import org.openrewrite.gradle.trait.GradleMultiDependency;
import org.openrewrite.gradle.trait.GradlePlugin;
import org.openrewrite.java.JavaIsoVisitor;
import org.openrewrite.java.tree.Expression;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.JavaSourceFile;
import org.openrewrite.maven.tree.MavenRepository;
import rewriteassist.runner.gradle.GradleScript.Declared;
import rewriteassist.runner.gradle.GradleScript.Plugin;
import rewriteassist.runner.gradle.GradleScript.Repository;
import rewriteassist.runner.gradle.GradleScript.Scope;

/**
 * Reads a {@link GradleScript} from a build script's tree. Dependencies are recognized by
 * OpenRewrite's own traits ({@link GradleMultiDependency}, {@link GradleDependency}), plugins by
 * {@link GradlePlugin}, variables by {@link ExtraProperty}; catalog references ({@code libs.x},
 * {@code alias(libs.plugins.x)}) and project dependencies, which the traits leave out, are read
 * here. The dependency traits ask the tree's {@link GradleProject} marker which method names are
 * configurations (the Kotlin DSL has no type attribution that says so), so the tree is read with a
 * provisional marker naming the configurations its {@code dependencies} blocks call.
 */
final class GradleScriptReader extends JavaIsoVisitor<Integer> {
    /** Blocks whose assignments are the project's own variables, group, version and Java level. */
    private static final Set<String> PROJECT_BLOCKS =
            Set.of("", "ext", "extra", "allprojects", "subprojects", "java", "toolchain", "compileJava", "kotlin");

    private static final Set<String> LEVELS =
            Set.of("sourceCompatibility", "targetCompatibility", "release", "languageVersion", "jvmToolchain");

    private final GradleCatalog catalog;
    private final Map<String, Plugin> plugins = new LinkedHashMap<>();
    private final Set<Repository> repositories = new LinkedHashSet<>();
    private final Set<Repository> buildscriptRepositories = new LinkedHashSet<>();
    private final List<Declared> dependencies = new ArrayList<>();
    private final List<Declared> classpath = new ArrayList<>();
    private final Map<String, String> variables = new LinkedHashMap<>();
    private final List<String> unread = new ArrayList<>();
    private @Nullable String group;
    private @Nullable String version;
    private @Nullable String javaLevel;

    private GradleScriptReader(GradleCatalog catalog) {
        this.catalog = catalog;
    }

    static GradleScript read(JavaSourceFile tree, GradleCatalog catalog) {
        GradleScriptReader reader = new GradleScriptReader(catalog);
        JavaSourceFile marked = tree.withMarkers(tree.getMarkers().setByType(provisionalMarker(tree)));
        reader.visit(marked, 0);
        return new GradleScript(
                List.copyOf(reader.plugins.values()),
                List.copyOf(reader.repositories),
                List.copyOf(reader.dependencies),
                List.copyOf(reader.buildscriptRepositories),
                List.copyOf(reader.classpath),
                Map.copyOf(reader.variables),
                Optional.ofNullable(reader.group),
                Optional.ofNullable(reader.version),
                Optional.ofNullable(reader.javaLevel),
                List.copyOf(reader.unread));
    }

    @Override
    public J.MethodInvocation visitMethodInvocation(J.MethodInvocation method, Integer p) {
        List<String> blocks = blocks(getCursor());
        String innermost = blocks.isEmpty() ? "" : blocks.get(blocks.size() - 1);
        boolean buildscript = blocks.contains("buildscript");
        boolean pluginManagement = blocks.contains("pluginManagement");
        if (!buildscript && !pluginManagement) {
            plugin(method);
        }
        if (innermost.equals("repositories") && !pluginManagement) {
            repository(method, buildscript ? buildscriptRepositories : repositories, scope(blocks));
        } else if (innermost.equals("dependencies") && !pluginManagement) {
            if (!buildscript) {
                dependency(method, dependencies, scope(blocks));
            } else if (method.getSimpleName().equals("classpath")) {
                dependency(method, classpath, Scope.OWN);
            }
        } else if (PROJECT_BLOCKS.contains(innermost)) {
            projectCall(method);
        }
        new ExtraProperty.Matcher().get(getCursor()).ifPresent(this::variable);
        return super.visitMethodInvocation(method, p);
    }

    @Override
    public J.Identifier visitIdentifier(J.Identifier identifier, Integer p) {
        // `java` or `` `java-library` `` as a statement of a Kotlin plugins block.
        Object parent = getCursor().getParentTreeCursor().getValue();
        List<String> blocks = blocks(getCursor());
        if (!blocks.isEmpty()
                && blocks.get(blocks.size() - 1).equals("plugins")
                && !(parent instanceof J.MethodInvocation)
                && !(parent instanceof J.FieldAccess)) {
            String id = identifier.getSimpleName().replace("`", "");
            plugins.putIfAbsent(id, new Plugin(id, "", scope(blocks)));
        }
        return super.visitIdentifier(identifier, p);
    }

    @Override
    public J.VariableDeclarations.NamedVariable visitVariable(
            J.VariableDeclarations.NamedVariable variable, Integer p) {
        if (PROJECT_BLOCKS.contains(innermost(getCursor()))
                || innermost(getCursor()).equals("buildscript")) {
            new ExtraProperty.Matcher().get(getCursor()).ifPresent(this::variable);
        }
        return super.visitVariable(variable, p);
    }

    @Override
    public J.Assignment visitAssignment(J.Assignment assignment, Integer p) {
        String innermost = innermost(getCursor());
        if (PROJECT_BLOCKS.contains(innermost) || innermost.equals("buildscript")) {
            new ExtraProperty.Matcher().get(getCursor()).ifPresent(this::variable);
            String value = GradleValues.string(assignment.getAssignment());
            String name = GradleValues.lastName(assignment.getVariable());
            if (value != null && assignment.getVariable() instanceof J.Identifier) {
                projectProperty(GradleValues.dotted(assignment.getVariable()), value);
            }
            if (value != null && isKotlinExtra(assignment.getVariable())) {
                J.MethodInvocation get = (J.MethodInvocation) assignment.getVariable();
                String key = GradleValues.string(get.getArguments().get(0));
                if (key != null) {
                    variables.put(key, value);
                }
            }
            if (name != null && LEVELS.contains(name)) {
                level(assignment.getAssignment());
            }
        }
        return super.visitAssignment(assignment, p);
    }

    /** {@code extra["name"]} in the Kotlin DSL. */
    private static boolean isKotlinExtra(Expression variable) {
        return variable instanceof J.MethodInvocation get
                && get.getSimpleName().equals("<get>")
                && "extra".equals(GradleValues.dotted(get.getSelect()))
                && get.getArguments().size() == 1;
    }

    private void plugin(J.MethodInvocation method) {
        Optional<GradlePlugin> found = new GradlePlugin.Matcher().get(getCursor());
        if (found.isEmpty()) {
            return;
        }
        Scope scope = scope(blocks(getCursor()));
        String id = found.get().getPluginId();
        String pluginVersion = found.get().getVersion();
        if (id == null && method.getSimpleName().equals("alias")) {
            String alias = GradleValues.dotted(method.getArguments().get(0));
            Optional<GradleCatalog.Entry> entry = alias != null && alias.startsWith("libs.plugins.")
                    ? catalog.plugin(alias.substring("libs.plugins.".length()))
                    : Optional.empty();
            if (entry.isEmpty()) {
                unread.add("plugin " + method.printTrimmed(getCursor()) + " (not in gradle/libs.versions.toml)");
                return;
            }
            id = entry.get().group();
            pluginVersion = entry.get().version();
        }
        if (id != null) {
            Plugin plugin = new Plugin(id, pluginVersion == null ? "" : pluginVersion, scope);
            Plugin known = plugins.get(id);
            // The first declaration wins, unless a later one gives the version it lacks.
            if (known == null || (known.version().isEmpty() && !plugin.version().isEmpty())) {
                plugins.put(id, plugin);
            }
        }
    }

    private void repository(J.MethodInvocation method, Set<Repository> into, Scope scope) {
        String url =
                switch (method.getSimpleName()) {
                    case "mavenCentral" -> MavenRepository.MAVEN_CENTRAL.getUri();
                    case "google" -> "https://maven.google.com";
                    case "gradlePluginPortal" -> "https://plugins.gradle.org/m2";
                    case "maven" -> mavenUrl(method);
                    default -> null;
                };
        if (url != null && method.getSimpleName().equals("maven")) {
            GradleRepositoryReader.Declared declared = GradleRepositoryReader.read(method, getCursor());
            into.add(new Repository(url, scope, declared.name(), declared.credentials()));
        } else if (url != null) {
            into.add(new Repository(url, scope));
        }
    }

    /** The URL of {@code maven("…")}, {@code maven { url '…' }}, {@code maven { url = uri("…") }}. */
    private static @Nullable String mavenUrl(J.MethodInvocation maven) {
        List<String> urls = new ArrayList<>();
        new JavaIsoVisitor<List<String>>() {
            @Override
            public J.Literal visitLiteral(J.Literal literal, List<String> found) {
                if (literal.getValue() instanceof String s && (s.startsWith("http") || s.startsWith("file:"))) {
                    found.add(s);
                }
                return literal;
            }
        }.visit(maven, urls, new Cursor(null, Cursor.ROOT_VALUE));
        return urls.isEmpty() ? null : urls.get(0);
    }

    private void dependency(J.MethodInvocation method, List<Declared> into, Scope scope) {
        String configuration = method.getSimpleName();
        List<Expression> arguments = method.getArguments();
        if (arguments.isEmpty() || arguments.get(0) instanceof J.Lambda || arguments.get(0) instanceof J.Empty) {
            return;
        }
        Expression first = arguments.get(0);
        boolean platform = first instanceof J.MethodInvocation wrapper
                && (wrapper.getSimpleName().equals("platform")
                        || wrapper.getSimpleName().equals("enforcedPlatform"));
        Expression inner = first instanceof J.MethodInvocation wrapper
                        && (platform || wrapper.getSimpleName().equals("testFixtures"))
                        && !wrapper.getArguments().isEmpty()
                ? wrapper.getArguments().get(0)
                : first;
        String reference = GradleValues.dotted(inner);
        if (reference != null && reference.startsWith("libs.")) {
            into.add(new Declared(configuration, "", "", "", platform, "", reference.substring(5), scope));
            return;
        }
        String project = projectPath(inner);
        if (project != null) {
            into.add(new Declared(configuration, "", "", "", false, project, "", scope));
            return;
        }
        int before = into.size();
        new GradleMultiDependency.Matcher()
                .get(getCursor())
                .ifPresent(multiple -> multiple.forEach(d -> into.add(new Declared(
                        configuration,
                        d.getGroupId(),
                        d.getArtifactId(),
                        GradleValues.versionTemplate(d),
                        d.isPlatform(),
                        "",
                        "",
                        scope))));
        if (into.size() == before) {
            unread.add("dependency " + method.printTrimmed(getCursor()));
        }
    }

    /** {@code ':core'} of {@code project(':core')} or {@code project(path: ':core')}. */
    private static @Nullable String projectPath(Expression expression) {
        if (!(expression instanceof J.MethodInvocation call)
                || !call.getSimpleName().equals("project")
                || call.getArguments().isEmpty()) {
            return null;
        }
        Expression argument = call.getArguments().get(0);
        if (argument instanceof org.openrewrite.groovy.tree.G.MapEntry entry) {
            return GradleValues.string(entry.getValue());
        }
        if (argument instanceof J.Assignment assignment) {
            return GradleValues.string(assignment.getAssignment());
        }
        return GradleValues.string(argument);
    }

    /** {@code version '1.0'}, {@code group 'g'} and the Java level calls of the project. */
    private void projectCall(J.MethodInvocation method) {
        if (method.getSelect() != null && !method.getSimpleName().equals("set")) {
            return;
        }
        List<Expression> arguments = method.getArguments();
        Expression first = arguments.size() == 1 ? arguments.get(0) : null;
        String name = method.getSimpleName();
        if (name.equals("set")) {
            String property = GradleValues.lastName(method.getSelect());
            if (property != null && LEVELS.contains(property)) {
                level(first);
            }
        } else if (LEVELS.contains(name)) {
            level(first);
        } else if (first != null && GradleValues.string(first) != null) {
            projectProperty(name, GradleValues.string(first));
        }
    }

    private void projectProperty(@Nullable String name, @Nullable String value) {
        if ("group".equals(name)) {
            group = value;
        } else if ("version".equals(name)) {
            version = value;
        }
    }

    private void variable(ExtraProperty property) {
        variables.put(property.getName(), property.getValue());
    }

    private void level(@Nullable Expression expression) {
        String level = GradleValues.javaLevel(expression);
        if (javaLevel == null && level != null) {
            javaLevel = level;
        }
    }

    /** The names of the method invocations enclosing the cursor's tree, outermost first. */
    static List<String> blocks(Cursor cursor) {
        List<String> names = new ArrayList<>();
        for (Cursor c = cursor.getParent(); c != null; c = c.getParent()) {
            if (c.getValue() instanceof J.MethodInvocation enclosing) {
                names.add(0, enclosing.getSimpleName());
            }
        }
        return names;
    }

    private static String innermost(Cursor cursor) {
        List<String> blocks = blocks(cursor);
        return blocks.isEmpty() ? "" : blocks.get(blocks.size() - 1);
    }

    private static Scope scope(List<String> blocks) {
        if (blocks.contains("allprojects")) {
            return Scope.ALLPROJECTS;
        }
        return blocks.contains("subprojects") ? Scope.SUBPROJECTS : Scope.OWN;
    }

    /**
     * A marker whose configurations are the names the script's {@code dependencies} blocks call,
     * and whose buildscript has {@code classpath}: what the dependency traits need to recognize
     * declarations in either DSL.
     */
    private static GradleProject provisionalMarker(JavaSourceFile tree) {
        Set<String> names = new LinkedHashSet<>();
        new JavaIsoVisitor<Set<String>>() {
            @Override
            public J.MethodInvocation visitMethodInvocation(J.MethodInvocation method, Set<String> found) {
                if (innermost(getCursor()).equals("dependencies")) {
                    found.add(method.getSimpleName());
                }
                return super.visitMethodInvocation(method, found);
            }
        }.visit(tree, names);
        Map<String, GradleDependencyConfiguration> configurations = new HashMap<>();
        names.forEach(name -> configurations.put(name, declarable(name)));
        return GradleProject.builder()
                .id(randomId())
                .name("")
                .path(":")
                .plugins(List.of())
                .mavenRepositories(List.of())
                .nameToConfiguration(configurations)
                .buildscript(new GradleBuildscript(randomId(), List.of(), Map.of("classpath", declarable("classpath"))))
                .build();
    }

    private static GradleDependencyConfiguration declarable(String name) {
        return GradleDependencyConfiguration.builder()
                .name(name)
                .isTransitive(true)
                .isCanBeResolved(false)
                .isCanBeConsumed(false)
                .isCanBeDeclared(true)
                .extendsFrom(new ArrayList<>())
                .requested(new ArrayList<>())
                .directResolved(new ArrayList<>())
                .constraints(new ArrayList<>())
                .attributes(new HashMap<>())
                .build();
    }
}
