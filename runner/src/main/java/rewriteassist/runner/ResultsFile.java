package rewriteassist.runner;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import org.jspecify.annotations.Nullable;

/**
 * A results file: the protocol version, the request's id and, at the same level, the request's
 * {@link Results}. The id is null only for a request file whose id could not be read (its answer
 * still goes to the {@code output} it names).
 */
record ResultsFile(int protocol, @Nullable String id, @JsonUnwrapped Results results) {
    static ResultsFile of(@Nullable String id, Results results) {
        return new ResultsFile(Main.PROTOCOL, id, results);
    }
}
