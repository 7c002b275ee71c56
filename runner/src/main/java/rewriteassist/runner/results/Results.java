package rewriteassist.runner.results;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What one request produced: the body of its results file ({@link ResultsFile} adds the protocol
 * version and the request's id). The shapes are src/validation/embedded/protocol.rs's, which owns
 * the protocol; ResultsJsonTest pins them.
 */
public sealed interface Results permits ParseResults, RunResults, CompileResults, LearnResults, FailedRequest {
    /** Whether the request did what it asked; when not, the results say why in {@code error}. */
    @JsonProperty("ok")
    boolean ok();
}
