package rewriteassist.runner.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.SourceFile;
import org.openrewrite.java.JavaParser;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.Statement;
import rewriteassist.runner.protocol.LearnTemplatesRequest;

/**
 * The before/after statement pairs of a PR's edits: the base statements an edit replaced (from the
 * attributed base trees) beside the statements of its after text, in order, when both sides have
 * as many. The after text has no attributed tree: it is parsed on its own, wrapped in a method,
 * for its structure and text only.
 */
final class EditPairs {
    /** One edited statement: where it starts in the base, its base tree, and what the PR wrote instead. */
    record Pair(String path, int line, Statement before, Statement after) {}

    private static final String WRAP_START = "class LearnedEdit {\n    void learnedEdit() {\n";
    private static final String WRAP_END = "\n    }\n}\n";

    private EditPairs() {}

    static List<Pair> of(
            Map<String, J.CompilationUnit> base, List<LearnTemplatesRequest.Edit> edits, List<String> warnings) {
        List<Pair> pairs = new ArrayList<>();
        for (LearnTemplatesRequest.Edit edit : edits) {
            if (edit.beforeEnd() < edit.beforeStart()) {
                continue; // a pure insertion replaced nothing: no before side to learn from
            }
            J.CompilationUnit unit = base.get(edit.path());
            if (unit == null) {
                warnings.add(edit.path() + " is not a Java file of the parse: its edits are not learned from");
                continue;
            }
            StatementLines lines = StatementLines.of(unit);
            List<Statement> before = lines.within(edit.beforeStart(), edit.beforeEnd());
            Optional<List<Statement>> after = statements(edit.after());
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
                if (!Printed.tokens(b).normalized().equals(Printed.tokens(a).normalized())) {
                    pairs.add(new Pair(edit.path(), lines.line(b), b, a));
                }
            }
        }
        return pairs;
    }

    /** The statements of a text, parsed without a classpath inside a method body; empty when it does not parse. */
    static Optional<List<Statement>> statements(String text) {
        Optional<J.CompilationUnit> unit = parse(WRAP_START + text + WRAP_END);
        if (unit.isEmpty() || unit.get().getClasses().isEmpty()) {
            return Optional.empty();
        }
        List<Statement> members = unit.get().getClasses().get(0).getBody().getStatements();
        if (members.size() != 1
                || !(members.get(0) instanceof J.MethodDeclaration method)
                || method.getBody() == null) {
            return Optional.empty();
        }
        return Optional.of(method.getBody().getStatements());
    }

    /** A compilation unit parsed without a classpath (structure and text only); empty when it does not parse. */
    static Optional<J.CompilationUnit> parse(String source) {
        ExecutionContext ctx = new InMemoryExecutionContext(e -> {});
        JavaParser parser = JavaParser.fromJavaVersion().classpath(List.of()).build();
        List<SourceFile> parsed = parser.parse(ctx, source).toList();
        return parsed.size() == 1 && parsed.get(0) instanceof J.CompilationUnit unit
                ? Optional.of(unit)
                : Optional.empty();
    }
}
