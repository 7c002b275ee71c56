package rewriteassist.runner.template;

import org.openrewrite.PrintOutputCapture;
import org.openrewrite.java.JavaPrinter;
import org.openrewrite.java.tree.J;
import org.openrewrite.java.tree.Space;

/** The source text of a subtree, as OpenRewrite's printer writes it, without its leading space. */
final class Printed {
    private Printed() {}

    /** The subtree's text, its prefix (the whitespace and comments before it) left out. */
    static String of(J tree) {
        PrintOutputCapture<Integer> out = new PrintOutputCapture<>(0);
        J bare = tree.withPrefix(Space.EMPTY);
        new JavaPrinter<Integer>().visit(bare, out);
        return out.getOut();
    }

    /** The subtree's tokens: its text compared and rewritten whitespace aside. */
    static JavaTokens tokens(J tree) {
        return JavaTokens.of(of(tree));
    }
}
