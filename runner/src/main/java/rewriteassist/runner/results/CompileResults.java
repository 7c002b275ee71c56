package rewriteassist.runner.results;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The results of a {@code compile_templates} request: the recipe jar and its POM (null when no
 * recipe was made: a compile error, or every template refused), the recipes in it, what became of
 * each template, and the compiler's errors and other warnings. A compile error is a result, not a
 * failed request: the caller wants to know which template did not compile and why.
 */
@JsonPropertyOrder({"ok", "jar", "pom", "recipes", "templates", "errors", "warnings", "seconds"})
public record CompileResults(
        @Nullable String jar,
        @Nullable String pom,
        List<String> recipes,
        List<CompiledTemplate> templates,
        List<String> errors,
        List<String> warnings,
        double seconds)
        implements Results {
    @Override
    public boolean ok() {
        return true;
    }
}
