package rewriteassist.runner.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.measure.CompileCheck;
import rewriteassist.runner.measure.Measurements;
import rewriteassist.runner.measure.Residual;
import rewriteassist.runner.run.RecipeRunner;

/**
 * One recipe run of a {@code run} request: a step on its own ({@code step} its index) or the whole
 * recipe ({@code step} null). {@code types} is absent when the recipe never ran (it did not load or
 * validate, or threw); {@code steps_by_file} and {@code left_out} belong to the whole run only, and
 * so do {@code residual} and {@code unresolved}, present only when the request's {@code measure}
 * asked for them ({@link Measurements}).
 * {@code options} are the recipe's own, as the recipe file wrote them: any JSON.
 */
@JsonPropertyOrder({
    "step",
    "name",
    "options",
    "diff",
    "files",
    "error",
    "warnings",
    "types",
    "steps_by_file",
    "seconds",
    "left_out",
    "residual",
    "unresolved"
})
public record StepRun(
        @Nullable Integer step,
        String name,
        ObjectNode options,
        String diff,
        List<String> files,
        @Nullable ErrorReport error,
        List<String> warnings,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Map<String, List<String>> types,
        @JsonProperty("steps_by_file") @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
                Map<String, List<Integer>> stepsByFile,
        double seconds,
        @JsonProperty("left_out") @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable List<Integer> leftOut,
        @JsonInclude(JsonInclude.Include.NON_NULL) Residual.@Nullable Counts residual,
        @JsonInclude(JsonInclude.Include.NON_NULL) CompileCheck.@Nullable Counts unresolved) {

    /** The same run, reported as step {@code index} of another request. */
    public StepRun asStep(int index) {
        return new StepRun(
                index,
                name,
                options,
                diff,
                files,
                error,
                warnings,
                types,
                stepsByFile,
                seconds,
                leftOut,
                residual,
                unresolved);
    }

    /**
     * A run as it is being made: {@link RecipeRunner} fills it in stages (a stage that throws leaves the
     * others as they were), then {@link #build} makes the record.
     */
    public static final class Builder {
        public final @Nullable Integer step;
        public final String name;
        final ObjectNode options;
        public String diff = "";
        public final List<String> files = new ArrayList<>();

        @Nullable
        public ErrorReport error;

        public final List<String> warnings = new ArrayList<>();
        /** Set once the recipe has run: the types each changed Java file's result uses. */
        @Nullable
        public Map<String, List<String>> types;

        @Nullable
        public Map<String, List<Integer>> stepsByFile;

        public double seconds;

        @Nullable
        public List<Integer> leftOut;

        /** The whole run's measurements, when the request asked for them ({@link Measurements}). */
        public Residual.@Nullable Counts residual;

        public CompileCheck.@Nullable Counts unresolved;

        public Builder(@Nullable Integer step, String name, ObjectNode options) {
            this.step = step;
            this.name = name;
            this.options = options;
        }

        public StepRun build() {
            return new StepRun(
                    step,
                    name,
                    options,
                    diff,
                    List.copyOf(files),
                    error,
                    List.copyOf(warnings),
                    types,
                    stepsByFile,
                    seconds,
                    leftOut == null ? null : List.copyOf(leftOut),
                    residual,
                    unresolved);
        }
    }
}
