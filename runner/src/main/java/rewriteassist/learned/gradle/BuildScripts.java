package rewriteassist.learned.gradle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Cursor;
import org.openrewrite.ExecutionContext;
import org.openrewrite.SourceFile;
import org.openrewrite.Tree;
import org.openrewrite.TreeVisitor;
import org.openrewrite.groovy.GroovyIsoVisitor;
import org.openrewrite.groovy.tree.G;
import org.openrewrite.java.tree.Expression;
import org.openrewrite.java.tree.J;
import org.openrewrite.kotlin.KotlinIsoVisitor;
import org.openrewrite.kotlin.tree.K;

/**
 * What the two recipes share: which files are build scripts, one visitor for Groovy and Kotlin
 * scripts alike, the blocks a node sits in, and string literals rewritten in their own quotes.
 */
final class BuildScripts {
    private BuildScripts() {}

    /** The part of a visitor that reads the same Java-like tree in either language. */
    interface Edits {
        default J.Assignment assignment(J.Assignment assignment, Cursor cursor) {
            return assignment;
        }

        default J.MethodInvocation invocation(J.MethodInvocation invocation, Cursor cursor) {
            return invocation;
        }
    }

    /** {@code edits} on Groovy ({@code *.gradle}) and Kotlin ({@code *.gradle.kts}) build scripts only. */
    static TreeVisitor<?, ExecutionContext> visitor(Edits edits) {
        return new TreeVisitor<Tree, ExecutionContext>() {
            @Override
            public boolean isAcceptable(SourceFile sourceFile, ExecutionContext ctx) {
                String path = sourceFile.getSourcePath().toString();
                return (sourceFile instanceof G.CompilationUnit && path.endsWith(".gradle"))
                        || (sourceFile instanceof K.CompilationUnit && path.endsWith(".gradle.kts"));
            }

            @Override
            public @Nullable Tree visit(@Nullable Tree tree, ExecutionContext ctx) {
                if (tree instanceof G.CompilationUnit) {
                    return new GroovyIsoVisitor<ExecutionContext>() {
                        @Override
                        public J.Assignment visitAssignment(J.Assignment assignment, ExecutionContext p) {
                            return edits.assignment(super.visitAssignment(assignment, p), getCursor());
                        }

                        @Override
                        public J.MethodInvocation visitMethodInvocation(J.MethodInvocation method, ExecutionContext p) {
                            return edits.invocation(super.visitMethodInvocation(method, p), getCursor());
                        }
                    }.visit(tree, ctx);
                }
                if (tree instanceof K.CompilationUnit) {
                    return new KotlinIsoVisitor<ExecutionContext>() {
                        @Override
                        public J.Assignment visitAssignment(J.Assignment assignment, ExecutionContext p) {
                            return edits.assignment(super.visitAssignment(assignment, p), getCursor());
                        }

                        @Override
                        public J.MethodInvocation visitMethodInvocation(J.MethodInvocation method, ExecutionContext p) {
                            return edits.invocation(super.visitMethodInvocation(method, p), getCursor());
                        }
                    }.visit(tree, ctx);
                }
                return tree;
            }
        };
    }

    /**
     * The names of the blocks around {@code cursor}'s node, outermost first: {@code compileKotlin
     * { kotlinOptions { … } }} gives {@code [compileKotlin, kotlinOptions]}. A block is a call whose
     * last argument is a closure or lambda.
     */
    static List<String> blocks(Cursor cursor) {
        List<String> names = new ArrayList<>();
        Iterator<Cursor> path = cursor.getPathAsCursors();
        path.next(); // the node itself
        while (path.hasNext()) {
            if (path.next().getValue() instanceof J.MethodInvocation call && isBlock(call)) {
                names.add(call.getSimpleName());
            }
        }
        Collections.reverse(names);
        return names;
    }

    private static boolean isBlock(J.MethodInvocation call) {
        List<Expression> arguments = call.getArguments();
        return !arguments.isEmpty() && arguments.get(arguments.size() - 1) instanceof J.Lambda;
    }

    /** A property reference's dotted parts ({@code kotlinOptions.jvmTarget}), or null for anything else. */
    static @Nullable List<String> parts(Expression expression) {
        if (expression instanceof J.Identifier identifier) {
            return new ArrayList<>(List.of(identifier.getSimpleName()));
        }
        if (expression instanceof J.FieldAccess access) {
            List<String> target = parts(access.getTarget());
            if (target != null) {
                target.add(access.getSimpleName());
            }
            return target;
        }
        return null;
    }

    /** A string literal's value, or null when {@code expression} is not one. */
    static @Nullable String string(Expression expression) {
        return expression instanceof J.Literal literal && literal.getValue() instanceof String value ? value : null;
    }

    /**
     * {@code literal} holding {@code value} in the quotes it was written in, or null when the value
     * would need escaping there (a quote, a backslash, or {@code $}, which a Groovy or Kotlin
     * string interpolates).
     */
    static J.@Nullable Literal withValue(J.Literal literal, String value) {
        String source = literal.getValueSource();
        if (source == null || source.length() < 2 || value.matches(".*[\"'\\\\$].*")) {
            return null;
        }
        char quote = source.charAt(0);
        if (quote != '"' && quote != '\'') {
            return null;
        }
        return literal.withValue(value).withValueSource(quote + value + quote);
    }
}
