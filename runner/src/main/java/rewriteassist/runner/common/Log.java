package rewriteassist.runner.common;

import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * The runner's log: one line each on stderr, masked by {@link Redaction}, and the short forms of
 * throwables and durations that the log and the results use.
 */
public final class Log {
    private Log() {}

    public static void log(String line) {
        System.err.println("runner: " + Redaction.mask(line));
        System.err.flush();
    }

    public static double seconds(long startedNanos) {
        return Math.round((System.nanoTime() - startedNanos) / 1e7) / 100.0;
    }

    /** A throwable as one line: its type and message, whitespace folded, at most 500 characters. */
    public static String oneLine(Throwable t) {
        String message = t.getMessage() == null ? "" : ": " + t.getMessage();
        return oneLine(t.getClass().getSimpleName() + message);
    }

    public static String oneLine(String text) {
        String line = Redaction.mask(text.replaceAll("\\s+", " ").strip());
        return line.length() <= 500 ? line : line.substring(0, 497) + "...";
    }

    /** The first ten lines of a stack trace: enough to see where, short enough for a report. */
    public static String stack(Throwable t) {
        StringWriter text = new StringWriter();
        t.printStackTrace(new PrintWriter(text));
        return excerpt(Redaction.mask(text.toString()));
    }

    public static String excerpt(String trace) {
        return String.join(
                "\n", trace.lines().limit(10).map(String::stripTrailing).toList());
    }
}
