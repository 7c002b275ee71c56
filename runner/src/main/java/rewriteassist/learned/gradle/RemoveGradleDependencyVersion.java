package rewriteassist.learned.gradle;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Cursor;
import org.openrewrite.ExecutionContext;
import org.openrewrite.Option;
import org.openrewrite.Recipe;
import org.openrewrite.TreeVisitor;
import org.openrewrite.groovy.tree.G;
import org.openrewrite.java.tree.Expression;
import org.openrewrite.java.tree.J;

/**
 * Removes the version of one dependency, declared {@code 'group:artifact:version'} or {@code
 * group: …, name: …, version: …} (Kotlin: {@code group = …}), so a platform or the Spring
 * dependency-management plugin manages it. OpenRewrite's {@code RemoveRedundantDependencyVersions}
 * is the catalog's only recipe that drops a version, and it also deletes a dependency of the same
 * coordinates in another configuration ({@code compileOnly} and {@code annotationProcessor} of one
 * Lombok); this one touches the named dependency's version and nothing else.
 */
public final class RemoveGradleDependencyVersion extends Recipe {
    @Option(displayName = "Group", description = "The dependency's group.", example = "org.springframework.boot")
    private final String groupId;

    @Option(displayName = "Artifact", description = "The dependency's name.", example = "spring-boot-starter-web")
    private final String artifactId;

    @Option(
            displayName = "Configuration",
            description = "Only in this configuration; in any when not set.",
            example = "implementation",
            required = false)
    private final @Nullable String configuration;

    @JsonCreator
    public RemoveGradleDependencyVersion(
            @JsonProperty("groupId") String groupId,
            @JsonProperty("artifactId") String artifactId,
            @JsonProperty("configuration") @Nullable String configuration) {
        this.groupId = groupId;
        this.artifactId = artifactId;
        this.configuration = configuration;
    }

    public String getGroupId() {
        return groupId;
    }

    public String getArtifactId() {
        return artifactId;
    }

    public @Nullable String getConfiguration() {
        return configuration;
    }

    @Override
    public String getDisplayName() {
        return "Remove a Gradle dependency's version";
    }

    @Override
    public String getDescription() {
        return "Removes the version of one dependency of a Groovy or Kotlin build script, leaving every other"
                + " declaration as it is.";
    }

    @Override
    public TreeVisitor<?, ExecutionContext> getVisitor() {
        return BuildScripts.visitor(new BuildScripts.Edits() {
            @Override
            public J.MethodInvocation invocation(J.MethodInvocation call, Cursor cursor) {
                if (call.getSelect() != null
                        || (configuration != null && !configuration.equals(call.getSimpleName()))
                        || !BuildScripts.blocks(cursor).contains("dependencies")) {
                    return call;
                }
                List<Expression> arguments = call.getArguments();
                String notation = arguments.size() == 1 ? BuildScripts.string(arguments.get(0)) : null;
                if (notation != null) {
                    return withoutVersion(call, (J.Literal) arguments.get(0), notation);
                }
                return withoutVersionEntry(call, arguments);
            }
        });
    }

    /** {@code 'group:artifact:version'} → {@code 'group:artifact'}; a classifier or extension stays as it was. */
    private J.MethodInvocation withoutVersion(J.MethodInvocation call, J.Literal literal, String notation) {
        String[] parts = notation.split(":", -1);
        if (parts.length != 3 || notation.contains("@") || !parts[0].equals(groupId) || !parts[1].equals(artifactId)) {
            return call;
        }
        J.Literal changed = BuildScripts.withValue(literal, groupId + ":" + artifactId);
        return changed == null ? call : call.withArguments(List.of(changed));
    }

    /** Map notation (Groovy) or named arguments (Kotlin): the {@code version} entry goes. */
    private J.MethodInvocation withoutVersionEntry(J.MethodInvocation call, List<Expression> arguments) {
        String group = null;
        String name = null;
        Expression version = null;
        for (Expression argument : arguments) {
            String key = key(argument);
            String value = value(argument);
            if ("group".equals(key)) {
                group = value;
            } else if ("name".equals(key)) {
                name = value;
            } else if ("version".equals(key)) {
                version = argument;
            }
        }
        if (version == null || !groupId.equals(group) || !artifactId.equals(name)) {
            return call;
        }
        List<Expression> kept = new ArrayList<>(arguments);
        kept.remove(version);
        return call.withArguments(kept);
    }

    private static @Nullable String key(Expression argument) {
        Expression key = argument instanceof G.MapEntry entry
                ? entry.getKey()
                : argument instanceof J.Assignment assignment ? assignment.getVariable() : null;
        if (key instanceof J.Identifier identifier) {
            return identifier.getSimpleName();
        }
        return key == null ? null : BuildScripts.string(key);
    }

    private static @Nullable String value(Expression argument) {
        if (argument instanceof G.MapEntry entry) {
            return BuildScripts.string(entry.getValue());
        }
        return argument instanceof J.Assignment assignment ? BuildScripts.string(assignment.getAssignment()) : null;
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof RemoveGradleDependencyVersion that
                && groupId.equals(that.groupId)
                && artifactId.equals(that.artifactId)
                && Objects.equals(configuration, that.configuration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(groupId, artifactId, configuration);
    }
}
