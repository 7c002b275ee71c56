package rewriteassist.runner.template;

import java.util.List;
import java.util.Optional;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.SourceFile;
import org.openrewrite.java.JavaParser;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.Statement;

/**
 * Java text the base trees do not hold (a PR's after text, its head files' imports) parsed without a
 * classpath: its structure and text are all the learner reads of it. One parser for a request, reset
 * between texts: starting javac for each of a PR's hunks would cost more than parsing them.
 */
final class TextParser {
    private static final String WRAP_START = "class LearnedEdit {\n    void learnedEdit() {\n";
    private static final String WRAP_END = "\n    }\n}\n";

    private final JavaParser parser =
            JavaParser.fromJavaVersion().classpath(List.of()).build();

    /** A compilation unit's text parsed; empty when it does not parse. */
    Optional<J.CompilationUnit> unit(String source) {
        parser.reset();
        ExecutionContext ctx = new InMemoryExecutionContext(e -> {});
        List<SourceFile> parsed = parser.parse(ctx, source).toList();
        return parsed.size() == 1 && parsed.get(0) instanceof J.CompilationUnit unit
                ? Optional.of(unit)
                : Optional.empty();
    }

    /** The statements of a text, parsed inside a method body; empty when it does not parse. */
    Optional<List<Statement>> statements(String text) {
        Optional<J.CompilationUnit> unit = unit(WRAP_START + text + WRAP_END);
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
}
