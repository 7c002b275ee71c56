package rewriteassist.runner.template;

import java.util.List;
import rewriteassist.runner.results.LearnResults;

/**
 * A shape the learner accepted: its generalization and the after template every one of its
 * occurrences agrees on.
 */
record LearnedShape(AntiUnifier.Generalization generalization, String after) {
    /** What a template method returns: {@code void} for a statement, else the expression's type. */
    String returnType() {
        String returned = generalization.returnType();
        return returned == null ? "void" : returned;
    }

    /** A before or after as the template method's body writes it: {@code x;} or {@code return x;}. */
    String body(String code) {
        return generalization.returnType() == null ? code + ";" : "return " + code + ";";
    }

    /** A before or after as the results list it: a statement with its {@code ;}, an expression as is. */
    String written(String code) {
        return generalization.returnType() != null || code.endsWith(";") || code.endsWith("}") ? code : code + ";";
    }

    /** The parameters as a template method declares them: {@code T actual, T expected}. */
    String parameterList() {
        return String.join(
                ", ",
                generalization.parameters().stream()
                        .map(p -> p.type + " " + p.name)
                        .toList());
    }

    List<LearnResults.Parameter> parameters() {
        return generalization.parameters().stream()
                .map(p -> new LearnResults.Parameter(p.name, p.type))
                .toList();
    }

    List<LearnResults.Place> occurrences() {
        return generalization.pairs().stream()
                .map(p -> new LearnResults.Place(p.path(), p.line()))
                .toList();
    }

    /** What makes shapes one template with several before forms: the same after and parameters. */
    List<Object> rewrite() {
        return List.of(
                JavaTokens.of(after).key(),
                parameters(),
                generalization.typeVariables(),
                String.valueOf(generalization.returnType()));
    }
}
