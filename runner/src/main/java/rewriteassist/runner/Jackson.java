package rewriteassist.runner;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The one JSON mapper of the runner: request files, results files, recipe options. */
final class Jackson {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Jackson() {}
}
