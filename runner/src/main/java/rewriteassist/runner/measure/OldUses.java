package rewriteassist.runner.measure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Cursor;
import org.openrewrite.SourceFile;
import org.openrewrite.java.tree.JavaSourceFile;
import org.openrewrite.marker.SearchResult;
import org.openrewrite.maven.tree.MavenResolutionResult;
import org.openrewrite.properties.PropertiesIsoVisitor;
import org.openrewrite.properties.tree.Properties;
import org.openrewrite.xml.XmlIsoVisitor;
import org.openrewrite.xml.tree.Xml;
import org.openrewrite.yaml.YamlIsoVisitor;
import org.openrewrite.yaml.tree.Yaml;
import rewriteassist.runner.parse.TypesInUse;

/**
 * What one file still uses of an {@link OldLibrary}, by kind of file: a Java (Groovy, Kotlin)
 * source's distinct old names among its {@link TypesInUse}; a POM's old dependencies, plugins and
 * Java version settings; a Gradle script's or version catalog's lines naming them; a properties or
 * YAML file's old keys. Each with sample lines ({@code path:line: text}) when there is any.
 */
public final class OldUses {
    /** At most this many sample lines per file (and per run). */
    static final int SAMPLES = 10;

    /** Properties that hold the Java version in a POM. */
    private static final Set<String> VERSION_PROPERTIES =
            Set.of("maven.compiler.source", "maven.compiler.target", "maven.compiler.release", "java.version");

    /** The compiler plugin's settings that hold the Java version. */
    private static final Set<String> COMPILER_SETTINGS = Set.of("source", "target", "release");

    /** A Gradle line that sets the Java version: one of these, then the version. */
    private static final Pattern GRADLE_VERSION_SETTING = Pattern.compile(
            "sourceCompatibility|targetCompatibility|jvmTarget|JavaLanguageVersion\\.of|JavaVersion\\.VERSION_");

    private OldUses() {}

    /**
     * How much of the old library one file uses, and where; {@code outOfReach}: the file is a POM
     * that did not resolve here (its parent or a BOM cannot be downloaded), which Maven recipes
     * skip, so no recipe could have taken its uses away on this machine.
     */
    record Count(int count, List<String> samples, boolean outOfReach) {
        static final Count NONE = new Count(0, List.of(), false);
    }

    /** The old uses in {@code tree}; {@link Count#NONE} for a kind that cannot have any. */
    static Count of(SourceFile tree, OldLibrary spec) {
        String path = tree.getSourcePath().toString();
        String name = tree.getSourcePath().getFileName().toString();
        if (name.endsWith(".gradle") || name.endsWith(".gradle.kts") || name.endsWith(".toml")) {
            return buildScript(tree, spec, path);
        }
        if (tree instanceof JavaSourceFile source) {
            return spec.measuresSources() ? source(source, spec, path) : Count.NONE;
        }
        if (tree instanceof Xml.Document pom && name.equals("pom.xml")) {
            Count count = marked(pom, (SourceFile) new PomUses(spec).visitNonNull(pom, 0), path);
            boolean resolved =
                    pom.getMarkers().findFirst(MavenResolutionResult.class).isPresent();
            return resolved || count.count() == 0 ? count : new Count(count.count(), count.samples(), true);
        }
        if (tree instanceof Properties.File properties && !spec.configKeys().isEmpty()) {
            return marked(properties, (SourceFile) new PropertiesUses(spec).visitNonNull(properties, 0), path);
        }
        if (tree instanceof Yaml.Documents yaml && !spec.configKeys().isEmpty()) {
            return marked(yaml, (SourceFile) new YamlUses(spec).visitNonNull(yaml, 0), path);
        }
        return Count.NONE;
    }

    /**
     * A source's distinct old names; each sample is the first line naming the old name (its
     * import, else its type's simple name as a word, else its package). A name counts only where
     * the text still names it (an import, a fully qualified use, an on-demand import of its
     * package): after a recipe, a tree's type attribution can lag behind its text (ChangePackage
     * rewrites the import, and an annotation's type may keep the old name), and what the next
     * build compiles is the text.
     */
    private static Count source(JavaSourceFile source, OldLibrary spec, String path) {
        Set<String> old = new TreeSet<>();
        for (String name : TypesInUse.ofSource(source)) {
            if (spec.isOld(name)) {
                old.add(name);
            }
        }
        if (old.isEmpty()) {
            return Count.NONE;
        }
        String text = source.printAll();
        old.removeIf(name -> !named(text, name));
        if (old.isEmpty()) {
            return Count.NONE;
        }
        List<String> lines = text.lines().toList();
        Set<String> samples = new LinkedHashSet<>();
        for (String name : old) {
            if (samples.size() >= SAMPLES) {
                break;
            }
            int line = lineNaming(lines, name);
            if (line >= 0) {
                samples.add(path + ":" + (line + 1) + ": " + MarkedLines.trimmed(lines.get(line)));
            }
        }
        return new Count(old.size(), List.copyOf(samples), false);
    }

    /** Whether {@code text} names {@code name}: its type fully qualified, or its package on demand. */
    private static boolean named(String text, String name) {
        String dotted = (name.endsWith(".*") ? name.substring(0, name.length() - 2) : name).replace('$', '.');
        String type = OldLibrary.topLevelType(dotted);
        return text.contains(type) || text.contains(OldLibrary.packageOf(dotted) + ".*");
    }

    /** The index of the first line naming {@code name}, or -1. */
    private static int lineNaming(List<String> lines, String name) {
        String dotted = (name.endsWith(".*") ? name.substring(0, name.length() - 2) : name).replace('$', '.');
        String type = OldLibrary.topLevelType(dotted);
        List<Pattern> candidates = new ArrayList<>();
        candidates.add(Pattern.compile(Pattern.quote(dotted)));
        candidates.add(Pattern.compile(Pattern.quote(type) + "\\b"));
        candidates.add(Pattern.compile("\\b" + Pattern.quote(OldLibrary.lastSegment(type)) + "\\b"));
        candidates.add(Pattern.compile(Pattern.quote(OldLibrary.packageOf(dotted)) + "\\b"));
        for (Pattern candidate : candidates) {
            for (int i = 0; i < lines.size(); i++) {
                if (candidate.matcher(lines.get(i)).find()) {
                    return i;
                }
            }
        }
        return -1;
    }

    /**
     * A Gradle script's or a version catalog's lines that name an old dependency ({@code "g:a…"},
     * {@code group: 'g', name: 'a'}, {@code module = "g:a"}), an old plugin ({@code id("x")},
     * {@code id 'x'}, {@code id = "x"}, {@code plugin: 'x'}) or set the old Java version: one each.
     */
    private static Count buildScript(SourceFile tree, OldLibrary spec, String path) {
        List<Pattern> patterns = new ArrayList<>();
        for (String dependency : spec.dependencies()) {
            String[] ga = dependency.split(":", 2);
            patterns.add(Pattern.compile("[\"']" + Pattern.quote(dependency) + "[\"':@]"));
            patterns.add(Pattern.compile("(?=.*\\bgroup\\s*[:=]\\s*[\"']" + Pattern.quote(ga[0]) + "[\"'])"
                    + "(?=.*\\bname\\s*[:=]\\s*[\"']" + Pattern.quote(ga.length > 1 ? ga[1] : "") + "[\"'])"));
        }
        for (String plugin : spec.plugins()) {
            patterns.add(
                    Pattern.compile("\\b(id|plugin)\\s*(\\(\\s*|[:=]\\s*|\\s)[\"']" + Pattern.quote(plugin) + "[\"']"));
        }
        Integer version = spec.javaVersion();
        Pattern level = version == null
                ? null
                : Pattern.compile("(?<![\\w.])(1[._])?" + version + "(?![\\w.])|(VERSION|JVM)_(1_)?" + version + "\\b");
        if (patterns.isEmpty() && level == null) {
            return Count.NONE;
        }
        List<String> lines = tree.printAll().lines().toList();
        int count = 0;
        List<String> samples = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            boolean old = patterns.stream().anyMatch(p -> p.matcher(line).find());
            if (!old && level != null) {
                java.util.regex.Matcher setting = GRADLE_VERSION_SETTING.matcher(line);
                old = setting.find()
                        && level.matcher(line.substring(setting.start())).find();
            }
            if (old) {
                count++;
                if (samples.size() < SAMPLES) {
                    samples.add(path + ":" + (i + 1) + ": " + MarkedLines.trimmed(line));
                }
            }
        }
        return new Count(count, List.copyOf(samples), false);
    }

    /** The marks a visitor left on a tree: one use each, sampled at their lines. */
    private static Count marked(SourceFile original, SourceFile marked, String path) {
        if (marked == original) {
            return Count.NONE;
        }
        Map<UUID, MarkedLines.Line> lines = MarkedLines.of(marked);
        List<String> samples = lines.values().stream()
                .sorted(java.util.Comparator.comparingInt(MarkedLines.Line::number))
                .limit(SAMPLES)
                .map(line -> line.sample(path))
                .toList();
        return new Count(lines.size(), samples, false);
    }

    /** Marks a POM's old dependencies and plugins, and its settings of the old Java version. */
    private static final class PomUses extends XmlIsoVisitor<Integer> {
        private final OldLibrary spec;

        PomUses(OldLibrary spec) {
            this.spec = spec;
        }

        @Override
        public Xml.Tag visitTag(Xml.Tag tag, Integer p) {
            Xml.Tag t = super.visitTag(tag, p);
            return isOld(t) ? SearchResult.found(t) : t;
        }

        private boolean isOld(Xml.Tag tag) {
            String ga = tag.getChildValue("groupId").orElse("") + ":"
                    + tag.getChildValue("artifactId").orElse("");
            if (tag.getName().equals("dependency")) {
                return spec.dependencies().contains(ga);
            }
            if (tag.getName().equals("plugin")) {
                String group = tag.getChildValue("groupId").orElse("org.apache.maven.plugins");
                return spec.plugins()
                        .contains(group + ":" + tag.getChildValue("artifactId").orElse(""));
            }
            if (spec.javaVersion() == null || tag.getValue().isEmpty()) {
                return false;
            }
            Xml.Tag parent = parentTag(getCursor());
            if (parent == null || !spec.isOldJavaVersion(tag.getValue().get())) {
                return false;
            }
            if (parent.getName().equals("properties")) {
                return VERSION_PROPERTIES.contains(tag.getName());
            }
            return parent.getName().equals("configuration")
                    && COMPILER_SETTINGS.contains(tag.getName())
                    && inCompilerPlugin(getCursor());
        }

        /** The tag around the current one (null for the root tag). */
        private static Xml.@Nullable Tag parentTag(Cursor cursor) {
            Cursor parent = cursor.getParent();
            return parent == null ? null : parent.firstEnclosing(Xml.Tag.class);
        }

        private static boolean inCompilerPlugin(Cursor cursor) {
            for (Cursor c = cursor.getParent(); c != null; c = c.getParent()) {
                if (c.getValue() instanceof Xml.Tag tag && tag.getName().equals("plugin")) {
                    return tag.getChildValue("artifactId").orElse("").equals("maven-compiler-plugin");
                }
            }
            return false;
        }
    }

    /** Marks a properties file's entries whose key is an old one. */
    private static final class PropertiesUses extends PropertiesIsoVisitor<Integer> {
        private final OldLibrary spec;

        PropertiesUses(OldLibrary spec) {
            this.spec = spec;
        }

        @Override
        public Properties.Entry visitEntry(Properties.Entry entry, Integer p) {
            Properties.Entry e = super.visitEntry(entry, p);
            return spec.configKeys().contains(e.getKey()) ? SearchResult.found(e) : e;
        }
    }

    /**
     * Marks a YAML file's mapping entries whose dotted key path (across nested mappings, in every
     * document; a sequence adds nothing to the path) is an old key.
     */
    private static final class YamlUses extends YamlIsoVisitor<Integer> {
        private final OldLibrary spec;

        YamlUses(OldLibrary spec) {
            this.spec = spec;
        }

        @Override
        public Yaml.Mapping.Entry visitMappingEntry(Yaml.Mapping.Entry entry, Integer p) {
            Yaml.Mapping.Entry e = super.visitMappingEntry(entry, p);
            List<String> keys = new ArrayList<>();
            keys.add(entry.getKey().getValue());
            for (Cursor c = getCursor().getParent(); c != null; c = c.getParent()) {
                if (c.getValue() instanceof Yaml.Mapping.Entry outer) {
                    keys.add(0, outer.getKey().getValue());
                }
            }
            return spec.configKeys().contains(String.join(".", keys)) ? SearchResult.found(e) : e;
        }
    }
}
