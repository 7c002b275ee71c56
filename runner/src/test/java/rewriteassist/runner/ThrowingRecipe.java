package rewriteassist.runner;

import org.openrewrite.ExecutionContext;
import org.openrewrite.Recipe;
import org.openrewrite.TreeVisitor;
import org.openrewrite.java.JavaIsoVisitor;
import org.openrewrite.java.tree.J;

/** A stand-in for a recipe with a bug: its visitor throws on every class declaration. */
public class ThrowingRecipe extends Recipe {
    @Override
    public String getDisplayName() {
        return "Throws";
    }

    @Override
    public String getDescription() {
        return "Throws on every class declaration.";
    }

    @Override
    public TreeVisitor<?, ExecutionContext> getVisitor() {
        return new JavaIsoVisitor<>() {
            @Override
            public J.ClassDeclaration visitClassDeclaration(J.ClassDeclaration classDecl, ExecutionContext ctx) {
                throw new IllegalStateException("boom in " + classDecl.getSimpleName());
            }
        };
    }
}
