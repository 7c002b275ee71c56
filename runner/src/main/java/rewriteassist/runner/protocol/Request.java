package rewriteassist.runner.protocol;

import java.nio.file.Path;

/**
 * A request file, checked against the protocol ({@link Requests#read}): one record per request
 * type, each with the fields of its type only.
 */
public sealed interface Request permits ParseRequest, RunRequest, CompileTemplatesRequest, LearnTemplatesRequest {
    /** The request's id, which its results and its {@code done} line repeat. */
    String id();

    /** Where its results file goes. */
    Path output();

    /** The request's {@code type} as the protocol names it. */
    String type();
}
