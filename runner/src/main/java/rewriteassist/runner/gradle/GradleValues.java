package rewriteassist.runner.gradle;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Tree;
import org.openrewrite.gradle.trait.GradleDependency;
import org.openrewrite.groovy.tree.G;
import org.openrewrite.java.tree.Expression;
import org.openrewrite.java.tree.J;
import org.openrewrite.kotlin.tree.K;

/**
 * Values written in a Gradle script's tree: string literals, dotted names, Java levels, and
 * dependency versions as templates whose {@code ${name}} parts are the script's variables.
 */
final class GradleValues {
    /** The part of a version template whose value the script computes (never a variable). */
    static final String COMPUTED = "${?}";

    private GradleValues() {}

    /** A string literal's value. */
    static @Nullable String string(@Nullable Expression expression) {
        return expression instanceof J.Literal literal && literal.getValue() instanceof String s ? s : null;
    }

    /** {@code a.b.c} for an identifier or a chain of field accesses. */
    static @Nullable String dotted(@Nullable Tree tree) {
        if (tree instanceof J.Identifier identifier) {
            return identifier.getSimpleName();
        }
        if (tree instanceof J.FieldAccess access) {
            String target = dotted(access.getTarget());
            return target == null ? null : target + "." + access.getSimpleName();
        }
        return null;
    }

    /** The last name of {@code a.b.c} (or of an identifier). */
    static @Nullable String lastName(@Nullable Tree tree) {
        if (tree instanceof J.Identifier identifier) {
            return identifier.getSimpleName();
        }
        return tree instanceof J.FieldAccess access ? access.getSimpleName() : null;
    }

    /**
     * A Java level ({@code 1.8}, {@code 17}) from {@code '1.8'}, {@code 17},
     * {@code JavaVersion.VERSION_17} or {@code JavaLanguageVersion.of(17)}.
     */
    static @Nullable String javaLevel(@Nullable Expression expression) {
        if (expression instanceof J.Literal literal && literal.getValue() != null) {
            return level(literal.getValue().toString());
        }
        String name = lastName(expression);
        if (name != null && name.startsWith("VERSION_")) {
            return level(name.substring("VERSION_".length()));
        }
        if (expression instanceof J.MethodInvocation call
                && (call.getSimpleName().equals("of") || call.getSimpleName().equals("toVersion"))
                && call.getArguments().size() == 1) {
            return javaLevel(call.getArguments().get(0));
        }
        return null;
    }

    private static @Nullable String level(String written) {
        String level = written.replace('_', '.');
        boolean digits = !level.isEmpty() && level.chars().allMatch(c -> Character.isDigit(c) || c == '.');
        return digits && (level.equals("1.8") || (level.length() <= 2 && level.indexOf('.') < 0)) ? level : null;
    }

    /**
     * The version a dependency declares, as a template: literal text, {@code ${name}} for a
     * variable or property, {@link #COMPUTED} for anything else; empty when none is written.
     */
    static String versionTemplate(GradleDependency dependency) {
        GradleDependency declared = dependency.isPlatform() ? dependency.getPlatformDependency() : dependency;
        if (declared == null) {
            return "";
        }
        List<Expression> arguments = declared.getTree().getArguments();
        Expression first = arguments.isEmpty() ? null : arguments.get(0);
        if (first instanceof G.GString gString) {
            return afterCoordinates(template(gString.getStrings()));
        }
        if (first instanceof K.StringTemplate kString) {
            return afterCoordinates(template(kString.getStrings()));
        }
        String variable = declared.getVersionVariable();
        if (variable != null) {
            return "${" + variable + "}";
        }
        String version = declared.getDeclaredVersion();
        return version == null ? "" : version;
    }

    /** A string template's parts as one template. */
    private static String template(List<J> parts) {
        StringBuilder out = new StringBuilder();
        for (J part : parts) {
            if (part instanceof J.Literal literal) {
                out.append(literal.getValue());
            } else {
                Tree value = part instanceof G.GString.Value v
                        ? v.getTree()
                        : part instanceof K.StringTemplate.Expression e ? e.getTree() : null;
                String name = reference(value);
                out.append(name == null ? COMPUTED : "${" + name + "}");
            }
        }
        return out.toString();
    }

    /** The name a version expression reads: a variable, a field, {@code property('name')}. */
    private static @Nullable String reference(@Nullable Tree tree) {
        String name = dotted(tree);
        if (name != null) {
            return name;
        }
        if (tree instanceof J.MethodInvocation call
                && (call.getSimpleName().equals("property")
                        || call.getSimpleName().equals("findProperty"))
                && call.getArguments().size() == 1) {
            return string(call.getArguments().get(0));
        }
        return null;
    }

    /** {@code g:a:v[:classifier]} → {@code v}; empty when there is no version. */
    private static String afterCoordinates(String notation) {
        int first = notation.indexOf(':');
        int second = first < 0 ? -1 : notation.indexOf(':', first + 1);
        if (second < 0) {
            return "";
        }
        int third = notation.indexOf(':', second + 1);
        return third < 0 ? notation.substring(second + 1) : notation.substring(second + 1, third);
    }

    /**
     * {@code template} with each {@code ${name}} replaced from {@code variables} (a
     * {@code project.}, {@code rootProject.} or {@code ext.} prefix ignored); empty if one is unknown.
     */
    static Optional<String> interpolated(String template, Map<String, String> variables) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < template.length()) {
            int start = template.indexOf("${", at);
            int end = start < 0 ? -1 : template.indexOf('}', start);
            if (end < 0) {
                out.append(template, at, template.length());
                break;
            }
            String value = variables.get(withoutOwner(template.substring(start + 2, end)));
            if (value == null) {
                return Optional.empty();
            }
            out.append(template, at, start).append(value);
            at = end + 1;
        }
        return Optional.of(out.toString());
    }

    private static String withoutOwner(String name) {
        for (String owner : List.of("rootProject.", "project.", "ext.", "extra.")) {
            if (name.startsWith(owner)) {
                return withoutOwner(name.substring(owner.length()));
            }
        }
        return name;
    }
}
