package rewriteassist.runner.results;

import org.jspecify.annotations.Nullable;
import rewriteassist.runner.protocol.ErrorKind;

/**
 * The protocol's {@code error} object, of a failed request or of one recipe run. {@code stack} is
 * written as {@code null} when there is none (a message says it all, e.g. an invalid option).
 */
public record ErrorReport(ErrorKind kind, String message, @Nullable String stack) {}
