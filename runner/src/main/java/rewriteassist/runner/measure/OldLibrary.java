package rewriteassist.runner.measure;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.parse.TypesInUse;

/**
 * What a migration moves away from, as a {@code run} request's {@code measure.residual} names it:
 * packages and types of the old library (with the packages of the new one, which may lie below an
 * old one: JUnit 5's {@code org.junit.jupiter} is below JUnit 4's {@code org.junit}), build
 * dependencies and plugins ({@code groupId:artifactId}), configuration keys and a Java version.
 * {@link OldUses} counts what still uses it; these are the matching rules.
 */
record OldLibrary(
        List<String> packages,
        List<String> newPackages,
        List<String> types,
        Set<String> dependencies,
        Set<String> plugins,
        Set<String> configKeys,
        @Nullable Integer javaVersion) {

    /** The spec of a request's {@code measure.residual}; a field that is absent or not a list is empty. */
    static OldLibrary from(JsonNode json) {
        return new OldLibrary(
                texts(json.path("packages")),
                texts(json.path("new_packages")),
                texts(json.path("types")).stream().map(t -> t.replace('$', '.')).toList(),
                new LinkedHashSet<>(coordinates(texts(json.path("dependencies")))),
                new LinkedHashSet<>(coordinates(texts(json.path("plugins")))),
                new LinkedHashSet<>(texts(json.path("config_keys"))),
                version(json.path("java_version")));
    }

    private static List<String> texts(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(item -> {
            if (item.isTextual() && !item.asText().isBlank()) {
                out.add(item.asText().strip());
            }
        });
        return List.copyOf(out);
    }

    /** {@code group:artifact}, also when a version was given too. */
    private static List<String> coordinates(List<String> entries) {
        return entries.stream()
                .map(e -> {
                    String[] parts = e.split(":");
                    return parts.length >= 2 ? parts[0] + ":" + parts[1] : e;
                })
                .toList();
    }

    /** A Java version as a number ({@code 11}) or text ({@code "1.8"}, {@code "17"}); else null. */
    private static @Nullable Integer version(JsonNode value) {
        if (value.isInt()) {
            return value.asInt();
        }
        if (value.isTextual()) {
            String normalized = normalizedVersion(value.asText());
            return normalized.matches("[0-9]{1,3}") ? Integer.valueOf(normalized) : null;
        }
        return null;
    }

    /** {@code 1.8} and {@code 8} are the same version: the form without {@code 1.}. */
    static String normalizedVersion(String value) {
        String v = value.strip();
        if (v.length() >= 2 && (v.startsWith("\"") || v.startsWith("'")) && v.endsWith(v.substring(0, 1))) {
            v = v.substring(1, v.length() - 1).strip();
        }
        return v.startsWith("1.") && v.length() > 2 ? v.substring(2) : v;
    }

    /** Whether {@code value} (a property's or a compiler setting's text) is the old Java version. */
    boolean isOldJavaVersion(String value) {
        return javaVersion != null && normalizedVersion(value).equals(String.valueOf(javaVersion));
    }

    /** Whether source files are measured at all (no packages or types: nothing in them is old). */
    boolean measuresSources() {
        return !packages.isEmpty() || !types.isEmpty();
    }

    /**
     * Whether a name {@link TypesInUse} returns is of the old library: a type ({@code a.B}, nested
     * {@code a.B$C}), an import's name ({@code a.B.member} for a static import) or an on-demand
     * import ({@code a.b.*}, {@code a.B.*}). Old when it is one of {@link #types} or a member or
     * nested type of one, or when its package is one of {@link #packages} or below it; never when
     * its package is one of {@link #newPackages} or below it.
     */
    boolean isOld(String name) {
        boolean onDemand = name.endsWith(".*");
        String dotted = (onDemand ? name.substring(0, name.length() - 2) : name).replace('$', '.');
        String pkg = onDemand && !startsUpper(lastSegment(dotted)) ? dotted : packageOf(dotted);
        if (under(pkg, newPackages)) {
            return false;
        }
        for (String type : types) {
            if (dotted.equals(type) || dotted.startsWith(type + ".")) {
                return true;
            }
        }
        return under(pkg, packages);
    }

    /**
     * The package of a dotted name: the segments before the first that starts with an upper-case
     * letter ({@code org.junit.Assert.assertEquals} → {@code org.junit}); without one, all but the
     * last segment.
     */
    static String packageOf(String dotted) {
        String[] segments = dotted.split("\\.");
        StringBuilder pkg = new StringBuilder();
        for (int i = 0; i < segments.length; i++) {
            if (startsUpper(segments[i])) {
                return pkg.toString();
            }
            if (i < segments.length - 1) {
                pkg.append(pkg.length() == 0 ? "" : ".").append(segments[i]);
            }
        }
        return pkg.toString();
    }

    /** The top-level type of a dotted name: its package and the first upper-case segment (or the name). */
    static String topLevelType(String dotted) {
        String pkg = packageOf(dotted);
        String rest = pkg.isEmpty() ? dotted : dotted.substring(Math.min(dotted.length(), pkg.length() + 1));
        int dot = rest.indexOf('.');
        return dot < 0 ? dotted : (pkg.isEmpty() ? "" : pkg + ".") + rest.substring(0, dot);
    }

    static String lastSegment(String dotted) {
        return dotted.substring(dotted.lastIndexOf('.') + 1);
    }

    private static boolean startsUpper(String segment) {
        return !segment.isEmpty() && Character.isUpperCase(segment.charAt(0));
    }

    private static boolean under(String pkg, List<String> roots) {
        for (String root : roots) {
            if (pkg.equals(root) || pkg.startsWith(root + ".")) {
                return true;
            }
        }
        return false;
    }
}
