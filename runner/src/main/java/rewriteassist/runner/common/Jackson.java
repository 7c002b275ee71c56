package rewriteassist.runner.common;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The one JSON mapper of the runner: request files, results files, recipe options. */
public final class Jackson {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Jackson() {}
}
