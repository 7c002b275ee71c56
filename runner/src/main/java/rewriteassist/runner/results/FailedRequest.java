package rewriteassist.runner.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.protocol.ErrorKind;

/**
 * The results of a request that failed ({@code ok: false}). {@code seconds} is absent only in the
 * answer to a request file that is not a request: no request was handled.
 */
@JsonPropertyOrder({"ok", "error", "seconds"})
public record FailedRequest(ErrorReport error, @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Double seconds)
        implements Results {
    @Override
    public boolean ok() {
        return false;
    }

    /** A failure without {@code seconds} yet: the request adds them when it answers. */
    public static FailedRequest of(ErrorKind kind, String message, @Nullable String stack) {
        return new FailedRequest(new ErrorReport(kind, message, stack), null);
    }

    public FailedRequest withSeconds(double seconds) {
        return new FailedRequest(error, seconds);
    }
}
