package rewriteassist.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Gradle build script declares, read from its text without running it (Groovy and Kotlin
 * DSL alike): plugins, repositories, dependencies by configuration, the variables its versions
 * use, its group and version, and its Java level. Gradle's model comes from running the scripts;
 * we cannot (no Gradle distribution, and repository code must not run), so this reads what is
 * written in the common forms. What a static read cannot see — logic in the script, convention
 * plugins in {@code buildSrc}, included builds — is missed, and the caller warns about it.
 */
record GradleScript(
        List<Plugin> plugins,
        List<Repository> repositories,
        List<Declared> dependencies,
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
    record Plugin(String id, String version, Scope scope) {}

    /** A repository's URL. */
    record Repository(String url, Scope scope) {}

    /**
     * A dependency as declared: its configuration and notation. {@code version} is empty when the
     * script gives none (a platform or plugin manages it); {@code project} names a project dependency
     * ({@code project(':core')}), {@code catalogAlias} a version catalog entry ({@code libs.foo.bar}).
     */
    record Declared(
            String configuration,
            String group,
            String artifact,
            String version,
            boolean platform,
            String project,
            String catalogAlias,
            Scope scope) {
        String ga() {
            return group + ":" + artifact;
        }
    }

    private static final Pattern STRING = Pattern.compile("'((?:[^'\\\\]|\\\\.)*)'|\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern CALL_OR_COMMAND =
            Pattern.compile("^\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*(\\(|\\s)(.*)$", Pattern.DOTALL);
    private static final Pattern PLUGIN_ID = Pattern.compile(
            "\\bid\\s*\\(?\\s*['\"]([^'\"]+)['\"]\\s*\\)?(?:\\s*version\\s*\\(?\\s*(['\"][^'\"]*['\"]|[A-Za-z_][\\w.]*)\\s*\\)?)?");
    private static final Pattern KOTLIN_PLUGIN =
            Pattern.compile("\\bkotlin\\s*\\(\\s*\"([^\"]+)\"\\s*\\)(?:\\s*version\\s*(\"[^\"]*\"|[A-Za-z_][\\w.]*))?");
    private static final Pattern APPLY_PLUGIN =
            Pattern.compile("\\bapply\\s*\\(?\\s*plugin\\s*[:=]\\s*['\"]([^'\"]+)['\"]");
    private static final Pattern ASSIGNMENT = Pattern.compile(
            "^\\s*(?:(?:def|val|var|String|final)\\s+)*(?:ext\\.|project\\.ext\\.|extra\\[\")?([A-Za-z_][\\w.]*)\"?\\]?\\s*(?:=|\\s)\\s*(['\"].*['\"])\\s*$");
    private static final Pattern EXTRA_SET =
            Pattern.compile("\\bset\\s*\\(\\s*\"([^\"]+)\"\\s*,\\s*(\"[^\"]*\")\\s*\\)");
    private static final Pattern URL = Pattern.compile("\\burl\\s*(?:=\\s*)?(?:uri\\s*\\(\\s*)?['\"]([^'\"]+)['\"]");
    private static final Pattern MAVEN_URL =
            Pattern.compile("^maven\\s*\\(\\s*(?:url\\s*=\\s*)?(?:uri\\s*\\()?\\s*['\"]([^'\"]+)['\"]");
    private static final Pattern NAMED =
            Pattern.compile("\\b(group|name|version)\\s*[:=]\\s*(['\"][^'\"]*['\"]|[A-Za-z_][\\w.]*)");
    private static final Pattern JAVA_LEVEL = Pattern.compile(
            "\\b(?:sourceCompatibility|targetCompatibility|release|languageVersion|jvmToolchain)\\b[^\\n]*?(?:VERSION_)?(1[._]8|[0-9]{1,2})\\b");

    /** Blocks whose dependencies are the build's own classpath, not the project's. */
    private static final Set<String> NOT_PROJECT_DEPENDENCIES = Set.of("buildscript", "pluginManagement");

    /**
     * The script's declarations. Never throws: blocks nested past {@link FileBudget#MAX_NESTING}
     * are left unread, and a script the reading cannot take at all (a string literal long enough
     * to overflow a regex's stack) is one unread line.
     */
    static GradleScript read(String text) {
        try {
            return readUnguarded(text);
        } catch (RuntimeException | StackOverflowError e) {
            return new GradleScript(
                    List.of(),
                    List.of(),
                    List.of(),
                    Map.of(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    List.of("the script (" + Main.oneLine(e) + ")"));
        }
    }

    private static GradleScript readUnguarded(String text) {
        String code = withoutComments(text);
        Reader reader = new Reader();
        reader.walk(code, new ArrayList<>());
        return new GradleScript(
                List.copyOf(reader.plugins.values()),
                List.copyOf(reader.repositories),
                List.copyOf(reader.dependencies),
                Map.copyOf(reader.variables),
                Optional.ofNullable(reader.group),
                Optional.ofNullable(reader.version),
                Optional.ofNullable(reader.javaLevel),
                List.copyOf(reader.unread));
    }

    /** The settings script: the projects it includes and the builds it includes (which we skip). */
    record Settings(String rootName, List<String> projects, List<String> includedBuilds) {
        private static final Pattern INCLUDE = Pattern.compile("^\\s*include\\b\\s*\\(?(.*?)\\)?\\s*$");
        private static final Pattern INCLUDE_BUILD = Pattern.compile("\\bincludeBuild\\s*\\(?\\s*['\"]([^'\"]+)['\"]");
        private static final Pattern ROOT_NAME = Pattern.compile("rootProject\\.name\\s*=\\s*['\"]([^'\"]+)['\"]");

        /** The settings; never throws (what cannot be read is not there). */
        static Settings read(String text) {
            try {
                return readUnguarded(text);
            } catch (RuntimeException | StackOverflowError e) {
                Main.log("gradle: the settings script cannot be read: " + Main.oneLine(e));
                return new Settings(null, List.of(), List.of());
            }
        }

        private static Settings readUnguarded(String text) {
            String code = withoutComments(text);
            List<String> projects = new ArrayList<>();
            List<String> builds = new ArrayList<>();
            String root = null;
            for (String line : code.split("\n")) {
                Matcher include = INCLUDE.matcher(line);
                if (include.matches()) {
                    Matcher names = STRING.matcher(include.group(1));
                    while (names.find()) {
                        String name = names.group(1) != null ? names.group(1) : names.group(2);
                        projects.add(
                                name.startsWith(":") ? name.substring(1).replace(':', '/') : name.replace(':', '/'));
                    }
                }
                Matcher build = INCLUDE_BUILD.matcher(line);
                while (build.find()) {
                    builds.add(build.group(1));
                }
                Matcher name = ROOT_NAME.matcher(line);
                if (name.find()) {
                    root = name.group(1);
                }
            }
            return new Settings(root, projects, builds);
        }
    }

    /** Walks the script's blocks, tracking which ones it is inside. */
    private static final class Reader {
        final Map<String, Plugin> plugins = new LinkedHashMap<>();
        final Set<Repository> repositories = new LinkedHashSet<>();
        final List<Declared> dependencies = new ArrayList<>();
        final Map<String, String> variables = new LinkedHashMap<>();
        final List<String> unread = new ArrayList<>();
        String group;
        String version;
        String javaLevel;

        void walk(String code, List<String> blocks) {
            int i = 0;
            StringBuilder statement = new StringBuilder();
            while (i < code.length()) {
                char c = code.charAt(i);
                if (c == '\'' || c == '"') {
                    int end = stringEnd(code, i);
                    statement.append(code, i, end);
                    i = end;
                    continue;
                }
                if (c == '(') {
                    int end = matching(code, i, '(', ')');
                    statement.append(code, i, end);
                    i = end;
                    continue;
                }
                if (c == '{' && blocks.size() >= FileBudget.MAX_NESTING) {
                    // Deeper than any real build: not read (and no recursion to overflow).
                    int end = matching(code, i, '{', '}');
                    String deep = "blocks nested more than " + FileBudget.MAX_NESTING + " levels deep";
                    if (!unread.contains(deep)) {
                        unread.add(deep);
                    }
                    statement.setLength(0);
                    i = end;
                    continue;
                }
                if (c == '{') {
                    int end = matching(code, i, '{', '}');
                    String head = statement.toString().strip();
                    String name = blockName(head);
                    List<String> inner = new ArrayList<>(blocks);
                    inner.add(name);
                    if (!head.isEmpty() && !name.isEmpty()) {
                        statement(head, inner, true);
                    }
                    walk(code.substring(i + 1, Math.max(i + 1, end - 1)), inner);
                    statement.setLength(0);
                    i = end;
                    continue;
                }
                if (c == '\n' || c == ';') {
                    statement(statement.toString(), blocks, false);
                    statement.setLength(0);
                    i++;
                    continue;
                }
                statement.append(c);
                i++;
            }
            statement(statement.toString(), blocks, false);
        }

        Scope scope = Scope.OWN;

        void statement(String raw, List<String> blocks, boolean opensBlock) {
            String line = raw.strip();
            if (line.isEmpty()) {
                return;
            }
            scope = blocks.contains("allprojects")
                    ? Scope.ALLPROJECTS
                    : blocks.contains("subprojects") ? Scope.SUBPROJECTS : Scope.OWN;
            String current = blocks.isEmpty() ? "" : blocks.get(blocks.size() - 1);
            boolean inBuildscript = blocks.stream().anyMatch(NOT_PROJECT_DEPENDENCIES::contains);
            if (current.equals("plugins") && !inBuildscript && !opensBlock) {
                plugin(line);
                return;
            }
            Matcher apply = APPLY_PLUGIN.matcher(line);
            if (apply.find() && !inBuildscript) {
                plugins.putIfAbsent(apply.group(1), new Plugin(apply.group(1), "", scope));
                return;
            }
            if (blocks.contains("repositories") && !inBuildscript) {
                repository(line);
                return;
            }
            if (current.equals("dependencies") && !inBuildscript && !opensBlock) {
                dependency(line);
                return;
            }
            if (blocks.isEmpty()
                    || current.equals("ext")
                    || current.equals("allprojects")
                    || current.equals("subprojects")
                    || current.equals("extra")
                    || current.equals("java")
                    || current.equals("toolchain")
                    || current.equals("compileJava")
                    || current.equals("kotlin")) {
                variable(line);
                Matcher level = JAVA_LEVEL.matcher(line);
                if (level.find() && !line.contains("jvmTarget")) {
                    String found = level.group(1).replace('_', '.');
                    javaLevel = javaLevel == null ? found : javaLevel;
                }
            }
        }

        void plugin(String line) {
            Matcher id = PLUGIN_ID.matcher(line);
            if (id.find()) {
                plugins.put(id.group(1), new Plugin(id.group(1), id.group(2) == null ? "" : value(id.group(2)), scope));
                return;
            }
            Matcher kotlin = KOTLIN_PLUGIN.matcher(line);
            if (kotlin.find()) {
                String pluginId = "org.jetbrains.kotlin." + kotlin.group(1);
                plugins.put(
                        pluginId, new Plugin(pluginId, kotlin.group(2) == null ? "" : value(kotlin.group(2)), scope));
                return;
            }
            String bare = line.replace("`", "").strip();
            if (bare.matches("[A-Za-z][\\w-]*")) {
                plugins.putIfAbsent(bare, new Plugin(bare, "", scope));
            } else if (line.contains("alias(")) {
                unread.add("plugin " + line);
            }
        }

        void repository(String line) {
            if (line.startsWith("mavenCentral")) {
                repositories.add(new Repository("https://repo.maven.apache.org/maven2", scope));
            } else if (line.startsWith("google")) {
                repositories.add(new Repository("https://maven.google.com", scope));
            } else if (line.startsWith("gradlePluginPortal")) {
                repositories.add(new Repository("https://plugins.gradle.org/m2", scope));
            } else {
                Matcher url = URL.matcher(line);
                if (url.find()) {
                    repositories.add(new Repository(url.group(1), scope));
                    return;
                }
                Matcher maven = MAVEN_URL.matcher(line);
                if (maven.find()) {
                    repositories.add(new Repository(maven.group(1), scope));
                }
            }
        }

        void dependency(String line) {
            Matcher call = CALL_OR_COMMAND.matcher(line);
            if (!call.matches()) {
                return;
            }
            String configuration = call.group(1);
            String rest = (call.group(2).equals("(") ? "(" : "") + call.group(3);
            rest = rest.strip();
            if (rest.startsWith("(") && rest.endsWith(")")) {
                rest = rest.substring(1, rest.length() - 1).strip();
            }
            boolean platform = false;
            Matcher wrapped = Pattern.compile(
                            "^(platform|enforcedPlatform|testFixtures)\\s*\\(\\s*(.*?)\\s*\\)$", Pattern.DOTALL)
                    .matcher(rest);
            if (wrapped.matches()) {
                platform = !wrapped.group(1).equals("testFixtures");
                rest = wrapped.group(2);
            }
            Matcher project = Pattern.compile("^project\\s*\\(\\s*(?:path\\s*[:=]\\s*)?['\"]([^'\"]+)['\"]")
                    .matcher(rest);
            if (project.find()) {
                dependencies.add(new Declared(configuration, "", "", "", false, project.group(1), "", scope));
                return;
            }
            Matcher catalog = Pattern.compile("^(libs(?:\\.[A-Za-z_][\\w]*)+)").matcher(rest);
            if (catalog.find()) {
                String alias = catalog.group(1).substring("libs.".length());
                dependencies.add(new Declared(configuration, "", "", "", platform, "", alias, scope));
                return;
            }
            Matcher named = NAMED.matcher(rest);
            Map<String, String> parts = new LinkedHashMap<>();
            while (named.find()) {
                parts.put(named.group(1), value(named.group(2)));
            }
            if (parts.containsKey("group") && parts.containsKey("name")) {
                dependencies.add(new Declared(
                        configuration,
                        parts.get("group"),
                        parts.get("name"),
                        parts.getOrDefault("version", ""),
                        platform,
                        "",
                        "",
                        scope));
                return;
            }
            Matcher string = STRING.matcher(rest);
            if (string.find() && string.start() == 0) {
                String notation = string.group(1) != null ? string.group(1) : string.group(2);
                String[] gav = notation.split(":");
                if (gav.length >= 2 && !gav[0].isBlank() && !gav[1].isBlank()) {
                    String v = gav.length >= 3 ? gav[2] : "";
                    dependencies.add(new Declared(configuration, gav[0], gav[1], v, platform, "", "", scope));
                    return;
                }
            }
            if (!configuration.equals("constraints") && !rest.isEmpty()) {
                unread.add("dependency " + line);
            }
        }

        void variable(String line) {
            Matcher assignment = ASSIGNMENT.matcher(line);
            if (assignment.matches()) {
                String name = assignment.group(1);
                String value = value(assignment.group(2));
                switch (name) {
                    case "group" -> group = value;
                    case "version" -> version = value;
                    default -> variables.put(name, value);
                }
                return;
            }
            Matcher set = EXTRA_SET.matcher(line);
            if (set.find()) {
                variables.put(set.group(1), value(set.group(2)));
            }
        }
    }

    /** The name of the block a statement opens: {@code dependencies}, {@code subprojects}, … */
    private static String blockName(String head) {
        Matcher name = Pattern.compile("([A-Za-z_][\\w]*)\\s*(?:\\(.*\\))?\\s*$", Pattern.DOTALL)
                .matcher(head);
        return name.find() ? name.group(1) : "";
    }

    /** A quoted literal without its quotes; anything else (a variable name) as written. */
    static String value(String token) {
        String t = token.strip();
        if (t.length() >= 2 && ((t.startsWith("'") && t.endsWith("'")) || (t.startsWith("\"") && t.endsWith("\"")))) {
            return t.substring(1, t.length() - 1);
        }
        return t;
    }

    /** The position after the string literal starting at {@code start} (triple quotes too). */
    private static int stringEnd(String code, int start) {
        char quote = code.charAt(start);
        String triple = String.valueOf(quote).repeat(3);
        if (code.startsWith(triple, start)) {
            int end = code.indexOf(triple, start + 3);
            return end < 0 ? code.length() : end + 3;
        }
        int i = start + 1;
        while (i < code.length()) {
            char c = code.charAt(i);
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == quote || c == '\n') {
                return i + 1;
            }
            i++;
        }
        return code.length();
    }

    /** The position after the bracket matching the one at {@code start}, strings skipped. */
    private static int matching(String code, int start, char open, char close) {
        int depth = 0;
        int i = start;
        while (i < code.length()) {
            char c = code.charAt(i);
            if (c == '\'' || c == '"') {
                i = stringEnd(code, i);
                continue;
            }
            if (c == open) {
                depth++;
            } else if (c == close) {
                depth--;
                if (depth == 0) {
                    return i + 1;
                }
            }
            i++;
        }
        return code.length();
    }

    /** The script with its comments blanked (strings kept; line breaks kept). */
    static String withoutComments(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                int end = stringEnd(text, i);
                out.append(text, i, end);
                i = end;
            } else if (text.startsWith("//", i)) {
                while (i < text.length() && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                end = end < 0 ? text.length() : end + 2;
                for (int j = i; j < end; j++) {
                    if (text.charAt(j) == '\n') {
                        out.append('\n');
                    }
                }
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** {@code text} with {@code $name} / {@code ${name}} replaced from {@code variables}; empty if one is unknown. */
    static Optional<String> interpolated(String text, Map<String, String> variables) {
        Matcher reference =
                Pattern.compile("\\$\\{([^}]+)}|\\$([A-Za-z_][\\w.]*)").matcher(text);
        StringBuilder out = new StringBuilder();
        while (reference.find()) {
            String name = reference.group(1) != null ? reference.group(1).strip() : reference.group(2);
            name = name.replaceFirst("^(project\\.|rootProject\\.|ext\\.|property\\(\"|extra\\[\")", "")
                    .replaceFirst("(\"\\)|\"])$", "");
            String value = variables.get(name);
            if (value == null) {
                return Optional.empty();
            }
            reference.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        reference.appendTail(out);
        return Optional.of(out.toString());
    }
}
