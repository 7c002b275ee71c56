package rewriteassist.runner;

import java.util.concurrent.atomic.AtomicInteger;
import org.openrewrite.ExecutionContext;
import org.openrewrite.Recipe;
import org.openrewrite.TreeVisitor;
import org.openrewrite.text.PlainText;
import org.openrewrite.text.PlainTextVisitor;

/** A recipe that counts the plain-text files it visits (and changes none): how often it ran. */
public class CountingRecipe extends Recipe {
    static final AtomicInteger VISITS = new AtomicInteger();

    @Override
    public String getDisplayName() {
        return "Counts";
    }

    @Override
    public String getDescription() {
        return "Counts the plain-text files it visits.";
    }

    @Override
    public TreeVisitor<?, ExecutionContext> getVisitor() {
        return new PlainTextVisitor<>() {
            @Override
            public PlainText visitText(PlainText text, ExecutionContext ctx) {
                VISITS.incrementAndGet();
                return text;
            }
        };
    }
}
