package rewriteassist.runner.protocol;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Why a request or a step failed, as the protocol names it (docs/embedded-runner.md, "Error
 * kinds"). The Rust side reads a kind it does not know as a runner failure, so a new one here is
 * safe only once protocol.rs knows it.
 */
public enum ErrorKind {
    UNKNOWN_RECIPE,
    YAML_ERROR,
    INVALID_OPTION,
    RECIPE_ERROR,
    NO_PARSE,
    INTERNAL;

    /** The name in the results file: {@code unknown_recipe}, {@code yaml_error}, … */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
