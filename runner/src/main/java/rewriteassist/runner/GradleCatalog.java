package rewriteassist.runner;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A version catalog ({@code gradle/libs.versions.toml}) as the scripts use it: {@code libs.foo.bar}
 * names the library {@code foo-bar} (or {@code foo_bar}, {@code foo.bar}), with its coordinates and
 * version; {@code [plugins]} the same for plugins. The common TOML forms are read line by line:
 * {@code "g:a:v"}, {@code { module = "g:a", version = "v" }}, {@code { group = "g", name = "a",
 * version.ref = "x" }}.
 */
final class GradleCatalog {
    /** A library or plugin: coordinates (or plugin id) and version (empty when none is given). */
    record Entry(String group, String artifact, String version) {}

    private static final Pattern ENTRY = Pattern.compile("^\\s*([A-Za-z0-9_.-]+)\\s*=\\s*(.+?)\\s*$");
    private static final Pattern FIELD = Pattern.compile("([A-Za-z.]+)\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

    private final Map<String, Entry> libraries = new HashMap<>();
    private final Map<String, Entry> plugins = new HashMap<>();

    static GradleCatalog empty() {
        return new GradleCatalog();
    }

    static GradleCatalog read(String toml) {
        GradleCatalog catalog = new GradleCatalog();
        Map<String, String> versions = new HashMap<>();
        Map<String, String> libraryLines = new HashMap<>();
        Map<String, String> pluginLines = new HashMap<>();
        String section = "";
        for (String raw : toml.split("\n")) {
            String line = raw.replaceFirst("\\s+#.*$", "").strip();
            if (line.startsWith("#") || line.isEmpty()) {
                continue;
            }
            if (line.startsWith("[")) {
                section = line.replaceAll("[\\[\\]\\s]", "");
                continue;
            }
            Matcher entry = ENTRY.matcher(line);
            if (!entry.matches()) {
                continue;
            }
            String key = normalize(entry.group(1));
            String value = entry.group(2);
            switch (section) {
                case "versions" -> {
                    Matcher quoted = QUOTED.matcher(value);
                    if (quoted.find()) {
                        versions.put(key, quoted.group(1));
                    }
                }
                case "libraries" -> libraryLines.put(key, value);
                case "plugins" -> pluginLines.put(key, value);
                default -> {}
            }
        }
        libraryLines.forEach((key, value) -> library(value, versions).ifPresent(e -> catalog.libraries.put(key, e)));
        pluginLines.forEach((key, value) -> plugin(value, versions).ifPresent(e -> catalog.plugins.put(key, e)));
        return catalog;
    }

    /** The library {@code libs.<accessor>} names. */
    Optional<Entry> library(String accessor) {
        return Optional.ofNullable(libraries.get(normalize(accessor)));
    }

    /** The plugin {@code libs.plugins.<accessor>} names. */
    Optional<Entry> plugin(String accessor) {
        return Optional.ofNullable(plugins.get(normalize(accessor)));
    }

    private static Optional<Entry> library(String value, Map<String, String> versions) {
        if (value.startsWith("\"")) {
            String[] gav = value.replace("\"", "").split(":");
            return gav.length >= 2
                    ? Optional.of(new Entry(gav[0], gav[1], gav.length > 2 ? gav[2] : ""))
                    : Optional.empty();
        }
        Map<String, String> fields = fields(value);
        String group = fields.get("group");
        String name = fields.get("name");
        if (fields.containsKey("module")) {
            String[] ga = fields.get("module").split(":");
            if (ga.length == 2) {
                group = ga[0];
                name = ga[1];
            }
        }
        if (group == null || name == null) {
            return Optional.empty();
        }
        return Optional.of(new Entry(group, name, version(fields, versions)));
    }

    private static Optional<Entry> plugin(String value, Map<String, String> versions) {
        if (value.startsWith("\"")) {
            String[] idVersion = value.replace("\"", "").split(":");
            return Optional.of(new Entry(idVersion[0], "", idVersion.length > 1 ? idVersion[1] : ""));
        }
        Map<String, String> fields = fields(value);
        String id = fields.get("id");
        return id == null ? Optional.empty() : Optional.of(new Entry(id, "", version(fields, versions)));
    }

    private static String version(Map<String, String> fields, Map<String, String> versions) {
        if (fields.containsKey("version.ref")) {
            return versions.getOrDefault(normalize(fields.get("version.ref")), "");
        }
        return fields.getOrDefault("version", "");
    }

    private static Map<String, String> fields(String inlineTable) {
        Map<String, String> fields = new HashMap<>();
        Matcher field = FIELD.matcher(inlineTable);
        while (field.find()) {
            fields.put(field.group(1), field.group(2));
        }
        return fields;
    }

    /** Gradle maps {@code -}, {@code _} and {@code .} in aliases to the same accessor. */
    private static String normalize(String alias) {
        return alias.replaceAll("[-_.]", ".").toLowerCase(java.util.Locale.ROOT);
    }
}
