package rewriteassist.runner.protocol;

/** A request file that cannot be read or is not a request: the runner exits with status 2. */
public final class BadRequest extends Exception {
    private static final long serialVersionUID = 1L;

    public BadRequest(String message) {
        super(message);
    }
}
