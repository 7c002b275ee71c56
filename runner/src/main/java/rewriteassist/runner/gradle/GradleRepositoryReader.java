package rewriteassist.runner.gradle;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Cursor;
import org.openrewrite.java.JavaIsoVisitor;
import org.openrewrite.java.tree.Expression;
import org.openrewrite.java.tree.J;
import org.openrewrite.kotlin.tree.K;
import rewriteassist.runner.gradle.GradleCredentials.Source;

/**
 * The name and the credentials of a {@code maven { }} repository block, Groovy or Kotlin DSL:
 * {@code name = "acme"}, {@code credentials { username = …; password = … }} (or the call form
 * {@code username "…"}), and {@code credentials(PasswordCredentials)}. A value is read as a
 * {@link Source} (where Gradle would take it), never evaluated.
 */
final class GradleRepositoryReader {
    /** The methods reading a Gradle property by name, and the objects they may be called on. */
    private static final Set<String> PROPERTY_METHODS = Set.of("findProperty", "property", "gradleProperty");

    private static final Set<String> OWNERS = Set.of("project", "rootProject", "providers", "project.providers");

    /** What a {@code maven { }} block says about its repository besides the URL. */
    record Declared(String name, Optional<GradleCredentials> credentials) {}

    private GradleRepositoryReader() {}

    /** Reads the block {@code maven}, whose cursor is {@code cursor}. */
    static Declared read(J.MethodInvocation maven, Cursor cursor) {
        String[] name = {""};
        List<J.MethodInvocation> credentials = new ArrayList<>();
        new JavaIsoVisitor<Integer>() {
            @Override
            public J.Assignment visitAssignment(J.Assignment assignment, Integer p) {
                if ("name".equals(GradleValues.lastName(assignment.getVariable()))
                        && GradleValues.string(assignment.getAssignment()) != null) {
                    name[0] = GradleValues.string(assignment.getAssignment());
                }
                return super.visitAssignment(assignment, p);
            }

            @Override
            public J.MethodInvocation visitMethodInvocation(J.MethodInvocation method, Integer p) {
                if (method.getSimpleName().equals("name")
                        && method.getArguments().size() == 1) {
                    String value = GradleValues.string(method.getArguments().get(0));
                    name[0] = value == null ? name[0] : value;
                } else if (method.getSimpleName().equals("credentials") && method.getSelect() == null) {
                    credentials.add(method);
                    return method; // its own assignments are the credentials', not the repository's
                }
                return super.visitMethodInvocation(method, p);
            }
        }.visit(maven, 0, cursor.getParentOrThrow());
        Optional<GradleCredentials> read = credentials.isEmpty()
                ? Optional.empty()
                : Optional.of(credentials(credentials.get(0), name[0], cursor));
        return new Declared(name[0], read);
    }

    /** {@code credentials { … }} or {@code credentials(PasswordCredentials)}. */
    private static GradleCredentials credentials(J.MethodInvocation call, String name, Cursor cursor) {
        Expression first =
                call.getArguments().isEmpty() ? null : call.getArguments().get(0);
        if (!(first instanceof J.Lambda)) {
            String type = first == null ? "" : first.printTrimmed(new Cursor(cursor, first));
            if (type.startsWith("PasswordCredentials") && !name.isEmpty()) {
                return GradleCredentials.ofRepositoryNamed(name);
            }
            // The type only: what follows it (an HTTP header's value, say) may be a secret.
            Source unread = new Source.Unread("credentials(" + type + ")");
            return new GradleCredentials(unread, unread);
        }
        Source[] values = {null, null};
        new JavaIsoVisitor<Integer>() {
            @Override
            public J.Assignment visitAssignment(J.Assignment assignment, Integer p) {
                take(GradleValues.lastName(assignment.getVariable()), assignment.getAssignment(), getCursor());
                return assignment;
            }

            @Override
            public J.MethodInvocation visitMethodInvocation(J.MethodInvocation method, Integer p) {
                if (method.getSelect() == null && method.getArguments().size() == 1) {
                    take(method.getSimpleName(), method.getArguments().get(0), getCursor());
                }
                return method;
            }

            private void take(@Nullable String what, Expression value, Cursor at) {
                int index = "username".equals(what) ? 0 : "password".equals(what) ? 1 : -1;
                if (index >= 0) {
                    values[index] = source(value, new Cursor(at, value));
                }
            }
        }.visit(first, 0, new Cursor(cursor, call));
        Source none = new Source.Unread("no " + (values[0] == null ? "username" : "password") + " in credentials");
        return new GradleCredentials(values[0] == null ? none : values[0], values[1] == null ? none : values[1]);
    }

    /** Where {@code value} comes from. */
    static Source source(Expression value, Cursor cursor) {
        Expression inner = unwrapped(value);
        String literal = GradleValues.string(inner);
        if (literal != null) {
            return new Source.Literal(literal);
        }
        if (inner instanceof K.Binary binary && binary.getOperator() == K.Binary.Type.Elvis) {
            return new Source.Either(source(binary.getLeft(), cursor), source(binary.getRight(), cursor));
        }
        if (inner instanceof J.Ternary ternary
                && ternary.getMarkers()
                        .findFirst(org.openrewrite.groovy.marker.Elvis.class)
                        .isPresent()) {
            return new Source.Either(source(ternary.getCondition(), cursor), source(ternary.getFalsePart(), cursor));
        }
        Source read = lookup(inner);
        return read != null ? read : new Source.Unread(masked(value, cursor));
    }

    /**
     * {@code value} as written, but for its string literals that are not a call's arguments (a
     * property's or a file's name): such a literal, say a part of {@code "s3" + "cret"}, may be a
     * secret, and a warning never shows one.
     */
    private static String masked(Expression value, Cursor cursor) {
        J shown = new JavaIsoVisitor<Integer>() {
            @Override
            public J.Literal visitLiteral(J.Literal literal, Integer p) {
                boolean argument = getCursor().getParentTreeCursor().getValue() instanceof J.MethodInvocation;
                return literal.getValue() instanceof String && !argument
                        ? literal.withValue("…").withValueSource("\"…\"")
                        : literal;
            }
        }.visit(value, 0, cursor.getParentOrThrow());
        return shown == null ? "(an expression)" : shown.printTrimmed(cursor);
    }

    /** A property or variable lookup, through {@code .get()} / {@code .orNull} of a provider; else null. */
    private static @Nullable Source lookup(Expression expression) {
        if (expression instanceof J.FieldAccess access && access.getSimpleName().equals("orNull")) {
            return lookup(access.getTarget());
        }
        if (!(expression instanceof J.MethodInvocation call)) {
            return null;
        }
        String method = call.getSimpleName();
        if ((method.equals("get") || method.equals("getOrNull"))
                && call.getArguments().stream().allMatch(a -> a instanceof J.Empty)
                && call.getSelect() != null) {
            return lookup(call.getSelect());
        }
        String owner = call.getSelect() == null ? "" : GradleValues.dotted(call.getSelect());
        String argument = call.getArguments().size() == 1
                ? GradleValues.string(call.getArguments().get(0))
                : null;
        if (argument == null || owner == null) {
            return null;
        }
        if (PROPERTY_METHODS.contains(method) && (owner.isEmpty() || OWNERS.contains(owner))) {
            return new Source.Property(argument);
        }
        if ((method.equals("getenv") && owner.equals("System"))
                || (method.equals("environmentVariable") && (owner.isEmpty() || OWNERS.contains(owner)))) {
            return new Source.Environment(argument);
        }
        return null;
    }

    /** The expression inside parentheses and casts ({@code findProperty("k") as String?}). */
    private static Expression unwrapped(Expression expression) {
        if (expression instanceof J.Parentheses<?> parentheses && parentheses.getTree() instanceof Expression inner) {
            return unwrapped(inner);
        }
        if (expression instanceof J.TypeCast cast) {
            return unwrapped(cast.getExpression());
        }
        return expression;
    }
}
