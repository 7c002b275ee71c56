package rewriteassist.runner.results;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * The results of a {@code run}: each step's run on its own and the whole recipe's, in that order,
 * and the steps that did not start because the request's time was up.
 */
@JsonPropertyOrder({"ok", "runs", "not_run", "seconds"})
public record RunResults(List<StepRun> runs, @JsonProperty("not_run") List<Integer> notRun, double seconds)
        implements Results {
    @Override
    public boolean ok() {
        return true;
    }
}
