package rewriteassist.runner;

import org.jspecify.annotations.Nullable;

/** A request that failed for a reason the protocol names (its results say {@code ok: false}). */
final class Failure extends Exception {
    private static final long serialVersionUID = 1L;
    final ErrorKind kind;
    final @Nullable String stack;

    Failure(ErrorKind kind, String message) {
        this(kind, message, null);
    }

    Failure(ErrorKind kind, String message, @Nullable String stack) {
        super(message);
        this.kind = kind;
        this.stack = stack;
    }
}
