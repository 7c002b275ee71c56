package rewriteassist.learned.gradle;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Cursor;
import org.openrewrite.ExecutionContext;
import org.openrewrite.Option;
import org.openrewrite.Recipe;
import org.openrewrite.TreeVisitor;
import org.openrewrite.java.tree.J;

/**
 * Sets the value of a property a build script assigns by name, wherever the script nests it:
 * {@code jvmTarget} matches {@code kotlinOptions.jvmTarget = '1.8'} inside {@code compileKotlin
 * { }} as well as {@code jvmTarget = "1.8"} inside {@code kotlinOptions { }}. OpenRewrite's
 * {@code UpgradeKotlinJvmTargetVersion} changes the second form only, and no catalog recipe sets a
 * Groovy or Kotlin property by name. Only string literals are changed, in their own quotes.
 */
public final class ChangeGradlePropertyValue extends Recipe {
    @Option(
            displayName = "Property name",
            description = "The property as the script assigns it, or its last dotted parts; the blocks it is"
                    + " nested in count as parts too.",
            example = "kotlinOptions.jvmTarget")
    private final String propertyName;

    @Option(displayName = "New value", description = "The value to assign, without quotes.", example = "17")
    private final String newValue;

    @Option(
            displayName = "Old value",
            description = "Only assignments of this value change; any string value when not set.",
            example = "1.8",
            required = false)
    private final @Nullable String oldValue;

    @JsonCreator
    public ChangeGradlePropertyValue(
            @JsonProperty("propertyName") String propertyName,
            @JsonProperty("newValue") String newValue,
            @JsonProperty("oldValue") @Nullable String oldValue) {
        this.propertyName = propertyName;
        this.newValue = newValue;
        this.oldValue = oldValue;
    }

    public String getPropertyName() {
        return propertyName;
    }

    public String getNewValue() {
        return newValue;
    }

    public @Nullable String getOldValue() {
        return oldValue;
    }

    @Override
    public String getDisplayName() {
        return "Change a Gradle property's value";
    }

    @Override
    public String getDescription() {
        return "Sets a property that a Groovy or Kotlin build script assigns a string to, found by its name"
                + " and the blocks around it.";
    }

    @Override
    public TreeVisitor<?, ExecutionContext> getVisitor() {
        List<String> wanted = Arrays.asList(propertyName.split("\\.", -1));
        return BuildScripts.visitor(new BuildScripts.Edits() {
            @Override
            public J.Assignment assignment(J.Assignment assignment, Cursor cursor) {
                List<String> variable = BuildScripts.parts(assignment.getVariable());
                String value = BuildScripts.string(assignment.getAssignment());
                if (variable == null || value == null || value.equals(newValue)) {
                    return assignment;
                }
                if (oldValue != null && !oldValue.equals(value)) {
                    return assignment;
                }
                List<String> path = new ArrayList<>(BuildScripts.blocks(cursor));
                path.addAll(variable);
                if (!endsWith(path, wanted)) {
                    return assignment;
                }
                J.Literal changed = BuildScripts.withValue((J.Literal) assignment.getAssignment(), newValue);
                return changed == null ? assignment : assignment.withAssignment(changed);
            }
        });
    }

    private static boolean endsWith(List<String> path, List<String> suffix) {
        return path.size() >= suffix.size()
                && path.subList(path.size() - suffix.size(), path.size()).equals(suffix);
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof ChangeGradlePropertyValue that
                && propertyName.equals(that.propertyName)
                && newValue.equals(that.newValue)
                && Objects.equals(oldValue, that.oldValue);
    }

    @Override
    public int hashCode() {
        return Objects.hash(propertyName, newValue, oldValue);
    }
}
