package rewriteassist.runner.measure;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.openrewrite.RecipeRun;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.parse.RepositoryParser;
import rewriteassist.runner.results.StepRun;

/**
 * What a {@code run} request's {@code measure} asks of the whole run (never of a single step, which
 * must stay as fast as without it): how much of the old library is left ({@link Residual}) and
 * how many symbols no longer resolve ({@link CompileCheck}). Each measurement is bookkeeping on
 * the side of the run: its failure is a warning of the run, never its error.
 */
public record Measurements(@Nullable OldLibrary residual, boolean compileCheck) {

    /** The request's {@code measure}; null when it is absent (nothing is measured). */
    public static @Nullable Measurements from(JsonNode json) {
        if (!json.isObject()) {
            return null;
        }
        JsonNode residual = json.path("residual");
        return new Measurements(
                residual.isObject() ? OldLibrary.from(residual) : null,
                json.path("compile_check").asBoolean(false));
    }

    /**
     * Measures the whole run's {@code result} on the trees it ran on ({@code parsed}; {@code base}
     * when they are the parse's own, whose counts are kept between requests) into {@code run}.
     * Only the changes {@code run} counts (its {@code files}) are measured: a tree the recipe
     * broke is not in its diff and not in its measurements either.
     */
    public void apply(RepositoryParser.Outcome parsed, boolean base, RecipeRun result, StepRun.Builder run) {
        List<Result> changes = counted(result, run.files);
        OldLibrary spec = residual;
        if (spec != null) {
            long started = System.nanoTime();
            try {
                run.residual = Residual.measure(parsed, base, changes, spec);
            } catch (RuntimeException e) {
                run.warnings.add("the residual uses of the old library are unknown: " + Log.oneLine(e));
                Log.log("residual failed: " + Log.stack(e));
            }
            Log.log("  residual measured in " + Log.seconds(started) + " s");
        }
        if (compileCheck) {
            long started = System.nanoTime();
            try {
                run.unresolved = CompileCheck.of(parsed, changes, run.warnings);
            } catch (RuntimeException | LinkageError e) {
                run.warnings.add("the compile check failed: " + Log.oneLine(e));
                Log.log("compile check failed: " + Log.stack(e));
            }
            Log.log("  compile check in " + Log.seconds(started) + " s");
        }
    }

    /** The results whose path (after; before for a deletion) is among the run's files. */
    private static List<Result> counted(RecipeRun result, List<String> files) {
        Set<String> paths = new HashSet<>(files);
        List<Result> out = new ArrayList<>();
        for (Result change : result.getChangeset().getAllResults()) {
            SourceFile tree = change.getAfter() != null ? change.getAfter() : change.getBefore();
            Path path = tree.getSourcePath();
            if (paths.contains(path.toString())) {
                out.add(change);
            }
        }
        return out;
    }
}
