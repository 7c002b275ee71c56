package rewriteassist.runner.protocol;

import org.jspecify.annotations.Nullable;

/** A request that failed for a reason the protocol names (its results say {@code ok: false}). */
public final class Failure extends Exception {
    private static final long serialVersionUID = 1L;
    public final ErrorKind kind;
    public final @Nullable String stack;

    public Failure(ErrorKind kind, String message) {
        this(kind, message, null);
    }

    public Failure(ErrorKind kind, String message, @Nullable String stack) {
        super(message);
        this.kind = kind;
        this.stack = stack;
    }
}
