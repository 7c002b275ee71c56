package rewriteassist.runner.template;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Tree;
import org.openrewrite.java.JavaVisitor;
import org.openrewrite.java.tree.Expression;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.Statement;
import rewriteassist.runner.protocol.LearnTemplatesRequest;

/**
 * The before/after statement pairs of a PR's edits: the base statements an edit replaced (from the
 * attributed base trees) beside the statements of its after text, in order, when both sides have
 * as many. The after text has no attributed tree: it is parsed on its own, wrapped in a method,
 * for its structure and text only. Two statements that differ in one sub-expression only are a
 * pair of those sub-expressions (an expression template).
 */
final class EditPairs {
    /**
     * One edit: where its statement starts in the base, the base tree and what the PR wrote
     * instead: two statements, or ({@code expression}) the one sub-expression they differ in.
     */
    record Pair(String path, int line, J before, J after, boolean expression) {}

    private EditPairs() {}

    static List<Pair> of(
            Map<String, J.CompilationUnit> base,
            List<LearnTemplatesRequest.Edit> edits,
            TextParser parser,
            List<String> warnings) {
        List<Pair> pairs = new ArrayList<>();
        // A unit is printed once for its lines, however many hunks it has.
        Map<String, StatementLines> linesByPath = new HashMap<>();
        for (LearnTemplatesRequest.Edit edit : edits) {
            if (edit.beforeEnd() < edit.beforeStart()) {
                continue; // a pure insertion replaced nothing: no before side to learn from
            }
            J.CompilationUnit unit = base.get(edit.path());
            if (unit == null) {
                warnings.add(edit.path() + " is not a Java file of the parse: its edits are not learned from");
                continue;
            }
            StatementLines lines = linesByPath.computeIfAbsent(edit.path(), p -> StatementLines.of(unit));
            List<Statement> before = lines.within(edit.beforeStart(), edit.beforeEnd());
            Optional<List<Statement>> after = parser.statements(edit.after());
            if (after.isEmpty()) {
                warnings.add(
                        edit.path() + ":" + edit.beforeStart() + ": the PR's text there does not parse as statements");
                continue;
            }
            if (before.isEmpty() || before.size() != after.get().size()) {
                continue; // statements were added, removed or merged: no pairs to tell apart
            }
            for (int i = 0; i < before.size(); i++) {
                Statement b = before.get(i);
                Statement a = after.get().get(i);
                if (!text(b).equals(text(a))) {
                    J[] narrowed = narrow(b, a);
                    pairs.add(new Pair(edit.path(), lines.line(b), narrowed[0], narrowed[1], narrowed[0] != b));
                }
            }
        }
        return pairs;
    }

    private static String text(J tree) {
        return Printed.tokens(tree).key();
    }

    /**
     * Where two statements differ in one sub-expression only ({@code if (list.size() == 0)} →
     * {@code if (list.isEmpty())}), that sub-expression of each: the deepest expression the walk
     * reaches while exactly one child differs. Else the statements themselves. A name (a method's,
     * a member's, a declared variable's) is no sub-expression: a renamed call stays a statement pair.
     */
    private static J[] narrow(J before, J after) {
        J[] best = {before, after};
        J b = before;
        J a = after;
        while (b.getClass() == a.getClass()) {
            List<J> bs = children(b);
            List<J> as = children(a);
            if (bs.size() != as.size()) {
                break;
            }
            int differing = -1;
            for (int i = 0; i < bs.size(); i++) {
                if (!text(bs.get(i)).equals(text(as.get(i)))) {
                    if (differing >= 0) {
                        return best;
                    }
                    differing = i;
                }
            }
            if (differing < 0 || isName(b, bs.get(differing))) {
                break;
            }
            b = bs.get(differing);
            a = as.get(differing);
            if (b instanceof Expression && a instanceof Expression) {
                best = new J[] {b, a};
            }
        }
        return best;
    }

    /** The trees directly below a tree, in the order the printer meets them. */
    private static List<J> children(J tree) {
        List<J> children = new ArrayList<>();
        new JavaVisitor<Integer>() {
            private int depth;

            @Override
            public @Nullable J visit(@Nullable Tree node, Integer p) {
                if (node instanceof J child && depth == 1) {
                    children.add(child);
                    return child;
                }
                depth++;
                try {
                    return super.visit(node, p);
                } finally {
                    depth--;
                }
            }
        }.visit(tree, 0);
        return children;
    }

    /** Whether {@code child} is the name of {@code parent}: a symbol, not a value. */
    private static boolean isName(J parent, J child) {
        return (parent instanceof J.MethodInvocation call && call.getName() == child)
                || (parent instanceof J.FieldAccess access && access.getName() == child)
                || (parent instanceof J.VariableDeclarations.NamedVariable variable && variable.getName() == child)
                || (parent instanceof J.MemberReference reference && reference.getReference() == child)
                || (parent instanceof J.NewClass created && created.getClazz() == child)
                || (parent instanceof J.MethodDeclaration method && method.getName() == child);
    }
}
