package rewriteassist.runner;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;

/**
 * The results of a request that failed ({@code ok: false}). {@code seconds} is absent only in the
 * answer to a request file that is not a request: no request was handled.
 */
@JsonPropertyOrder({"ok", "error", "seconds"})
record FailedRequest(ErrorReport error, @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double seconds)
        implements Results {
    @Override
    public boolean ok() {
        return false;
    }

    FailedRequest withSeconds(double seconds) {
        return new FailedRequest(error, seconds);
    }
}
