package rewriteassist.runner;

import org.openrewrite.ExecutionContext;
import org.openrewrite.Recipe;
import org.openrewrite.TreeVisitor;
import org.openrewrite.text.PlainText;
import org.openrewrite.text.PlainTextVisitor;

/** A recipe whose visitor throws on every plain-text file: a stand-in for a recipe with a bug. */
public class ThrowingRecipe extends Recipe {
    @Override
    public String getDisplayName() {
        return "Throws";
    }

    @Override
    public String getDescription() {
        return "Throws on every plain-text file.";
    }

    @Override
    public TreeVisitor<?, ExecutionContext> getVisitor() {
        return new PlainTextVisitor<>() {
            @Override
            public PlainText visitText(PlainText text, ExecutionContext ctx) {
                throw new IllegalStateException("boom in " + text.getSourcePath());
            }
        };
    }
}
