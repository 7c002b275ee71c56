package rewriteassist.runner.gradle;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.openrewrite.maven.tree.Dependency;
import org.openrewrite.maven.tree.DependencyNotation;
import org.openrewrite.toml.tree.Toml;
import org.openrewrite.toml.tree.TomlValue;

/**
 * A version catalog ({@code gradle/libs.versions.toml}) as the scripts use it, read from its parsed
 * TOML document: {@code libs.foo.bar} names the library {@code foo-bar} (or {@code foo_bar},
 * {@code foo.bar}), with its coordinates and version; {@code libs.plugins.foo} the plugin
 * {@code foo} of {@code [plugins]}. Libraries are {@code "g:a:v"} or inline tables with
 * {@code module} or {@code group}/{@code name}; versions are literal, {@code version.ref} or
 * {@code version = { ref = … }} / {@code { strictly | require | prefer = … }}.
 */
public final class GradleCatalog {
    /** A library or plugin: coordinates (or plugin id) and version (empty when none is given). */
    public record Entry(String group, String artifact, String version) {}

    private final Map<String, Entry> libraries = new HashMap<>();
    private final Map<String, Entry> plugins = new HashMap<>();

    public static GradleCatalog empty() {
        return new GradleCatalog();
    }

    public static GradleCatalog read(Toml.Document toml) {
        Map<String, Map<String, Toml>> sections = new HashMap<>();
        for (TomlValue value : toml.getValues()) {
            if (value instanceof Toml.Table table && table.getName() != null) {
                sections.put(table.getName().getName(), rows(table.getValues()));
            }
        }
        Map<String, String> versions = new HashMap<>();
        sections.getOrDefault("versions", Map.of()).forEach((key, value) -> {
            String version = version(value, Map.of());
            if (version != null) {
                versions.put(key, version);
            }
        });
        GradleCatalog catalog = new GradleCatalog();
        sections.getOrDefault("libraries", Map.of())
                .forEach((key, value) -> library(value, versions).ifPresent(e -> catalog.libraries.put(key, e)));
        sections.getOrDefault("plugins", Map.of())
                .forEach((key, value) -> plugin(value, versions).ifPresent(e -> catalog.plugins.put(key, e)));
        return catalog;
    }

    /** The library {@code libs.<accessor>} names. */
    public Optional<Entry> library(String accessor) {
        return Optional.ofNullable(libraries.get(normalize(accessor)));
    }

    /** The plugin {@code libs.plugins.<accessor>} names. */
    Optional<Entry> plugin(String accessor) {
        return Optional.ofNullable(plugins.get(normalize(accessor)));
    }

    /** The key-value rows of a table (or inline table), by normalized key. */
    private static Map<String, Toml> rows(List<Toml> values) {
        Map<String, Toml> rows = new HashMap<>();
        for (Toml row : values) {
            if (row instanceof Toml.KeyValue keyValue && keyValue.getKey() instanceof Toml.Identifier key) {
                rows.put(normalize(key.getName()), keyValue.getValue());
            }
        }
        return rows;
    }

    private static Optional<Entry> library(Toml value, Map<String, String> versions) {
        String notation = text(value);
        if (notation != null) {
            Dependency dependency = DependencyNotation.parse(notation);
            return dependency == null
                    ? Optional.empty()
                    : Optional.of(new Entry(
                            dependency.getGroupId(),
                            dependency.getArtifactId(),
                            dependency.getVersion() == null ? "" : dependency.getVersion()));
        }
        if (!(value instanceof Toml.Table table)) {
            return Optional.empty();
        }
        Map<String, Toml> fields = rows(table.getValues());
        String group = text(fields.get("group"));
        String name = text(fields.get("name"));
        String module = text(fields.get("module"));
        int colon = module == null ? -1 : module.indexOf(':');
        if (colon > 0) {
            group = module.substring(0, colon);
            name = module.substring(colon + 1);
        }
        if (group == null || name == null) {
            return Optional.empty();
        }
        return Optional.of(new Entry(group, name, entryVersion(fields, versions)));
    }

    private static Optional<Entry> plugin(Toml value, Map<String, String> versions) {
        String notation = text(value);
        if (notation != null) {
            int colon = notation.indexOf(':');
            return Optional.of(
                    colon < 0
                            ? new Entry(notation, "", "")
                            : new Entry(notation.substring(0, colon), "", notation.substring(colon + 1)));
        }
        if (!(value instanceof Toml.Table table)) {
            return Optional.empty();
        }
        Map<String, Toml> fields = rows(table.getValues());
        String id = text(fields.get("id"));
        return id == null ? Optional.empty() : Optional.of(new Entry(id, "", entryVersion(fields, versions)));
    }

    /** An entry's version: {@code version.ref}, or {@code version} (literal or rich). */
    private static String entryVersion(Map<String, Toml> fields, Map<String, String> versions) {
        String reference = text(fields.get(normalize("version.ref")));
        if (reference != null) {
            return versions.getOrDefault(normalize(reference), "");
        }
        Toml version = fields.get("version");
        String found = version == null ? null : version(version, versions);
        return found == null ? "" : found;
    }

    /** A version: a string, or a rich version's {@code ref}, {@code strictly}, {@code require} or {@code prefer}. */
    private static @Nullable String version(Toml value, Map<String, String> versions) {
        String literal = text(value);
        if (literal != null || !(value instanceof Toml.Table table)) {
            return literal;
        }
        Map<String, Toml> rich = rows(table.getValues());
        String reference = text(rich.get("ref"));
        if (reference != null) {
            return versions.get(normalize(reference));
        }
        for (String key : List.of("strictly", "require", "prefer")) {
            String found = text(rich.get(key));
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static @Nullable String text(@Nullable Toml value) {
        return value instanceof Toml.Literal literal && literal.getValue() instanceof String s ? s : null;
    }

    /** Gradle maps {@code -}, {@code _} and {@code .} in aliases to the same accessor. */
    static String normalize(String alias) {
        return alias.replace('-', '.').replace('_', '.').toLowerCase(Locale.ROOT);
    }
}
