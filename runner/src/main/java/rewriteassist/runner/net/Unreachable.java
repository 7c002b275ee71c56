package rewriteassist.runner.net;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openrewrite.table.SourcesFileErrors;
import rewriteassist.runner.common.Log;

/**
 * A recipe error that is only a host out of reach: {@code UpdateGradleWrapper} asking
 * services.gradle.org for Gradle's versions on a runner whose network does not reach it (a
 * firewalled CI, a proxy without that host). rewrite-maven-plugin logs such an error and keeps
 * the recipe's other changes; so does the runner, naming the file left as it was in a warning.
 * Any other error still leaves the step out: its changes elsewhere may rest on the broken one.
 */
public final class Unreachable {
    /** What a warning says, so rewrite-assist can pick these warnings out (protocol.rs). */
    public static final String MARK = "a host out of reach";

    /**
     * The JDK's exceptions for a host that cannot be reached, anywhere in the causes: no name, no
     * route, no answer, or a TLS handshake that fails (a proxy whose certificate the JVM does not
     * trust).
     */
    private static final Pattern NETWORK = Pattern.compile(
            "(java\\.net\\.(UnknownHostException|ConnectException|NoRouteToHostException|SocketTimeoutException"
                    + "|http\\.HttpConnectTimeoutException)|javax\\.net\\.ssl\\.SSLHandshakeException)\\b");

    private Unreachable() {}

    /** Whether the error is only that a host could not be reached. */
    public static boolean is(SourcesFileErrors.Row row) {
        return NETWORK.matcher(row.getStackTrace()).find();
    }

    /** The warning for {@code row}: which recipe left which file as it was, and the host's error. */
    public static String warning(SourcesFileErrors.Row row) {
        String cause = row.getStackTrace()
                .lines()
                .map(line -> {
                    Matcher m = NETWORK.matcher(line);
                    return m.find() ? line.substring(m.start()).strip() : null;
                })
                .filter(Objects::nonNull)
                .findFirst()
                .orElse("");
        return Log.oneLine(row.getRecipe() + " left " + row.getSourcePath() + " as it was, " + MARK + " (" + cause
                + "); the recipe's other changes stand");
    }
}
