package rewriteassist.runner.maven;

import static org.openrewrite.Tree.randomId;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.Charset;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.openrewrite.java.marker.JavaVersion;
import org.openrewrite.maven.tree.Plugin;
import org.openrewrite.maven.tree.ResolvedPom;

/**
 * What a module's compiler plugin and properties say about its sources, by the plugin's rules: the
 * Java level of main and test sources and their charset.
 */
public final class CompilerSettings {
    private CompilerSettings() {}

    /**
     * The charset of a module's sources as rewrite-maven-plugin reads it: the compiler plugin's
     * {@code encoding}, else {@code project.build.sourceEncoding}; null when neither names a
     * charset this JVM knows.
     */
    static @Nullable Charset charset(ResolvedPom pom) {
        JsonNode configuration = compilerConfiguration(pom);
        String encoding = configuration == null
                ? null
                : level(pom, configuration.path("encoding").asText(null));
        if (encoding == null) {
            encoding = level(pom, pom.getProperties().get("project.build.sourceEncoding"));
        }
        try {
            return encoding == null ? null : Charset.forName(encoding);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The module's Java level as the compiler plugin or the properties set it (the plugin's rules). */
    static JavaVersion javaVersion(ResolvedPom pom, boolean test) {
        String release = test ? "testRelease" : "release";
        String source = test ? "testSource" : "source";
        String target = test ? "testTarget" : "target";
        String sourceLevel = null;
        String targetLevel = null;
        JsonNode configuration = compilerConfiguration(pom);
        if (configuration != null) {
            String level = level(pom, configuration.path(release).asText(null));
            if (level != null) {
                sourceLevel = level;
                targetLevel = level;
            } else {
                sourceLevel = level(pom, configuration.path(source).asText(null));
                targetLevel = level(pom, configuration.path(target).asText(null));
            }
        }
        if (sourceLevel == null || targetLevel == null) {
            String level = level(pom, pom.getProperties().get("maven.compiler." + release));
            if (level != null) {
                sourceLevel = level;
                targetLevel = level;
            } else {
                sourceLevel = sourceLevel != null
                        ? sourceLevel
                        : level(pom, pom.getProperties().get("maven.compiler." + source));
                targetLevel = targetLevel != null
                        ? targetLevel
                        : level(pom, pom.getProperties().get("maven.compiler." + target));
            }
        }
        if (test && (sourceLevel == null || targetLevel == null)) {
            JavaVersion main = javaVersion(pom, false);
            sourceLevel = sourceLevel != null ? sourceLevel : main.getSourceCompatibility();
            targetLevel = targetLevel != null ? targetLevel : main.getTargetCompatibility();
        }
        return javaVersionMarker(sourceLevel, targetLevel);
    }

    private static @Nullable JsonNode compilerConfiguration(ResolvedPom pom) {
        for (List<Plugin> plugins : List.of(pom.getPlugins(), pom.getPluginManagement())) {
            for (Plugin plugin : plugins) {
                if (plugin.getGroupId().equals(Plugin.PLUGIN_DEFAULT_GROUPID)
                        && plugin.getArtifactId().equals("maven-compiler-plugin")
                        && plugin.getConfiguration() != null) {
                    return plugin.getConfiguration();
                }
            }
        }
        return null;
    }

    /** A usable level: set, with its properties resolved, and no placeholder left. */
    private static @Nullable String level(ResolvedPom pom, @Nullable String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String resolved = pom.getValue(value.strip());
        return resolved == null || resolved.isBlank() || resolved.contains("${") ? null : resolved;
    }

    public static JavaVersion javaVersionMarker(@Nullable String source, @Nullable String target) {
        String runtime = System.getProperty("java.specification.version");
        String sourceLevel = source == null ? runtime : source;
        return new JavaVersion(
                randomId(),
                runtime,
                System.getProperty("java.vm.vendor"),
                sourceLevel,
                target == null ? sourceLevel : target);
    }
}
