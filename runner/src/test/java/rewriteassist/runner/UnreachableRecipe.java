package rewriteassist.runner;

import java.io.UncheckedIOException;
import java.net.UnknownHostException;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.Recipe;
import org.openrewrite.SourceFile;
import org.openrewrite.Tree;
import org.openrewrite.TreeVisitor;

/**
 * A stand-in for a recipe that downloads while it runs (as {@code UpdateGradleWrapper} asks
 * services.gradle.org) on a network that does not reach the host: it fails on YAML files.
 */
public class UnreachableRecipe extends Recipe {
    @Override
    public String getDisplayName() {
        return "Unreachable";
    }

    @Override
    public String getDescription() {
        return "Fails on every YAML file as if its host could not be resolved.";
    }

    @Override
    public TreeVisitor<?, ExecutionContext> getVisitor() {
        return new TreeVisitor<>() {
            @Override
            public @Nullable Tree visit(@Nullable Tree tree, ExecutionContext ctx) {
                if (tree instanceof SourceFile file
                        && file.getSourcePath().toString().endsWith(".yml")) {
                    throw new UncheckedIOException(new UnknownHostException("downloads.example.invalid"));
                }
                return tree;
            }
        };
    }
}
