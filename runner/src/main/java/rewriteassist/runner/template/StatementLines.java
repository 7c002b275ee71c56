package rewriteassist.runner.template;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.openrewrite.PrintOutputCapture;
import org.openrewrite.Tree;
import org.openrewrite.java.JavaIsoVisitor;
import org.openrewrite.java.JavaPrinter;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.Space;
import org.openrewrite.java.tree.Statement;

/**
 * The lines of a compilation unit's statements: the unit is printed once (its text is the file's,
 * the trees are lossless) and each statement's first and last line is where its text, after its
 * prefix, starts and ends. OpenRewrite's trees carry no positions of their own.
 */
final class StatementLines {
    /** A statement's first and last line, 1-based. */
    record Lines(int first, int last) {}

    private final J.CompilationUnit unit;
    private final Map<UUID, Lines> lines = new HashMap<>();

    private StatementLines(J.CompilationUnit unit) {
        this.unit = unit;
    }

    static StatementLines of(J.CompilationUnit unit) {
        StatementLines found = new StatementLines(unit);
        PrintOutputCapture<Integer> out = new PrintOutputCapture<>(0);
        Map<UUID, int[]> offsets = new HashMap<>();
        new Recorder(offsets).visit(unit, out);
        // Line starts once, then a binary search per offset: files can be long.
        List<Integer> starts = new ArrayList<>(List.of(0));
        String text = out.getOut();
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                starts.add(i + 1);
            }
        }
        offsets.forEach((id, span) -> found.lines.put(id, new Lines(lineAt(starts, span[0]), lineAt(starts, span[1]))));
        return found;
    }

    /** The statements of blocks that lie within {@code first..last}, not nested in another such. */
    List<Statement> within(int first, int last) {
        List<Statement> found = new ArrayList<>();
        new JavaIsoVisitor<List<Statement>>() {
            @Override
            public J.Block visitBlock(J.Block block, List<Statement> statements) {
                for (Statement statement : block.getStatements()) {
                    Lines at = lines.get(statement.getId());
                    if (at != null && first <= at.first() && at.last() <= last) {
                        statements.add(statement);
                    } else {
                        visit(statement, statements);
                    }
                }
                return block;
            }
        }.visit(unit, found);
        return found;
    }

    /** The first line of a statement of this unit (0 for one it does not hold). */
    int line(Statement statement) {
        Lines at = lines.get(statement.getId());
        return at == null ? 0 : at.first();
    }

    /** The printer, noting where each statement's text starts and ends as it prints it. */
    private static final class Recorder extends JavaPrinter<Integer> {
        private final Map<UUID, int[]> offsets;

        Recorder(Map<UUID, int[]> offsets) {
            this.offsets = offsets;
        }

        @Override
        public @Nullable J visit(@Nullable Tree tree, PrintOutputCapture<Integer> p) {
            if (!(tree instanceof Statement statement)) {
                return super.visit(tree, p);
            }
            int start = p.out.length() + prefixLength(statement.getPrefix());
            J visited = super.visit(tree, p);
            offsets.put(statement.getId(), new int[] {start, Math.max(start, p.out.length() - 1)});
            return visited;
        }

        private int prefixLength(Space prefix) {
            PrintOutputCapture<Integer> out = new PrintOutputCapture<>(0);
            new JavaPrinter<Integer>().visitSpace(prefix, Space.Location.ANY, out);
            return out.out.length();
        }
    }

    /** The 1-based line of an offset, given the offsets where lines start. */
    private static int lineAt(List<Integer> starts, int offset) {
        int found = java.util.Collections.binarySearch(starts, offset);
        return found >= 0 ? found + 1 : -found - 1;
    }
}
