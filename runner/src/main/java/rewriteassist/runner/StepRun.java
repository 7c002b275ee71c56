package rewriteassist.runner;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One recipe run of a {@code run} request: a step on its own ({@code step} its index) or the whole
 * recipe ({@code step} null). {@code types} is absent when the recipe never ran (it did not load or
 * validate, or threw); {@code steps_by_file} and {@code left_out} belong to the whole run only, and
 * so do {@code residual} and {@code unresolved}, present only when the request's {@code measure}
 * asked for them ({@link Measure}).
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
record StepRun(
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
    StepRun asStep(int index) {
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
     * A run as it is being made: {@link Run} fills it in stages (a stage that throws leaves the
     * others as they were), then {@link #build} makes the record.
     */
    static final class Builder {
        final @Nullable Integer step;
        final String name;
        final ObjectNode options;
        String diff = "";
        final List<String> files = new ArrayList<>();

        @Nullable
        ErrorReport error;

        final List<String> warnings = new ArrayList<>();
        /** Set once the recipe has run: the types each changed Java file's result uses. */
        @Nullable
        Map<String, List<String>> types;

        @Nullable
        Map<String, List<Integer>> stepsByFile;

        double seconds;

        @Nullable
        List<Integer> leftOut;

        /** The whole run's measurements, when the request asked for them ({@link Measure}). */
        Residual.@Nullable Counts residual;

        CompileCheck.@Nullable Counts unresolved;

        Builder(@Nullable Integer step, String name, ObjectNode options) {
            this.step = step;
            this.name = name;
            this.options = options;
        }

        StepRun build() {
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
