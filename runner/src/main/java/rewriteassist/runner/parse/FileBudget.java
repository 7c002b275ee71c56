package rewriteassist.runner.parse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.common.Log;

/**
 * What one file may cost the parse. Some inputs make OpenRewrite's parsers run for ever or blow
 * their stack, and one such file must not cost the whole run: a build script of a thousand nested
 * closures never finishes in the Groovy parser (past a few hundred levels it takes minutes, then
 * overflows), the Kotlin parser overflows at about 150, and the TOML parser's time grows with the
 * square of a table's entries (a thousand entries take seconds, ten thousand take hours). So a
 * file of these kinds is measured before it is parsed (cheaply, without recursion) and refused
 * past the bounds below; the caller keeps it as plain text and names it in the warnings. The
 * bounds are far above what real builds write (a few levels of nesting, a few hundred catalog
 * entries).
 *
 * <p>What the measures do not foresee is caught by {@link #run}: the parse runs on a thread of its
 * own, with a known stack, and gets {@link #seconds} to finish. What the files of a kind cost
 * together is {@link TotalBudget}'s.
 */
final class FileBudget {
    /** Brackets ({@code { ( [}) nested in a Groovy or Kotlin file, strings and comments aside. */
    static final int MAX_NESTING = 100;

    /** Entries (key/value lines, table headers) of a TOML file. */
    static final int MAX_TOML_ENTRIES = 1_000;

    /** Bytes of a build script or TOML file: real ones are a few KiB (sources are not limited). */
    static final long MAX_BYTES = 1024L * 1024;

    /** The stack of a parse's thread: more than the default, so a deep but legal file has room. */
    private static final long STACK_BYTES = 8L * 1024 * 1024;

    /** The time one file's parse may take. */
    private static volatile long seconds = 60;

    private FileBudget() {}

    static long seconds() {
        return seconds;
    }

    /** Sets the time budget (tests use a short one); returns the one it replaces. */
    static long seconds(long budget) {
        long before = seconds;
        seconds = budget;
        return before;
    }

    /** Whether {@code file} is of a kind this budget measures before it is parsed. */
    static boolean measured(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return isCode(name) || name.endsWith(".toml");
    }

    /** Groovy or Kotlin: build scripts and sources, read by the parsers that nesting defeats. */
    private static boolean isCode(String name) {
        return name.endsWith(".gradle")
                || name.endsWith(".gradle.kts")
                || name.endsWith(".kt")
                || name.endsWith(".groovy");
    }

    /** The files whose size is limited: build scripts and TOML. */
    private static boolean isSized(String name) {
        return name.endsWith(".gradle") || name.endsWith(".gradle.kts") || name.endsWith(".toml");
    }

    /** Why {@code file} exceeds its budget, or null when it is within it (or not measured). */
    static @Nullable String exceeded(Path file) {
        if (!measured(file)) {
            return null;
        }
        try {
            long size = Files.size(file);
            if (size > MAX_BYTES && isSized(file.getFileName().toString().toLowerCase(Locale.ROOT))) {
                return tooLarge(size);
            }
            return exceeded(file.getFileName().toString(), Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            // Unreadable (not UTF-8, gone): the parser will say so in its own way.
            return null;
        }
    }

    /** Why a file named {@code name} with this text exceeds its budget, or null. */
    static @Nullable String exceeded(String name, String text) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (text.length() > MAX_BYTES && isSized(lower)) {
            return tooLarge(text.length());
        }
        if (isCode(lower)) {
            int depth = nesting(text);
            return depth > MAX_NESTING ? "nested " + depth + " levels deep (the limit is " + MAX_NESTING + ")" : null;
        }
        if (lower.endsWith(".toml")) {
            int entries = tomlEntries(text);
            return entries > MAX_TOML_ENTRIES ? entries + " entries (the limit is " + MAX_TOML_ENTRIES + ")" : null;
        }
        return null;
    }

    private static String tooLarge(long bytes) {
        return bytes / 1024 + " KiB (the limit is " + MAX_BYTES / 1024 + " KiB)";
    }

    /**
     * The deepest nesting of brackets in Groovy or Kotlin code, outside strings and comments, in
     * one pass without recursion. A closing bracket without an opening one counts as nothing.
     */
    static int nesting(String code) {
        int depth = 0;
        int deepest = 0;
        int i = 0;
        int n = code.length();
        while (i < n) {
            char c = code.charAt(i);
            if (c == '/' && i + 1 < n && code.charAt(i + 1) == '/') {
                int end = code.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (c == '/' && i + 1 < n && code.charAt(i + 1) == '*') {
                int end = code.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '\'' || c == '"') {
                i = stringEnd(code, i);
            } else {
                if (c == '{' || c == '(' || c == '[') {
                    deepest = Math.max(deepest, ++depth);
                } else if ((c == '}' || c == ')' || c == ']') && depth > 0) {
                    depth--;
                }
                i++;
            }
        }
        return deepest;
    }

    /** The position after the string literal at {@code start}: triple quotes, escapes, a line's end. */
    private static int stringEnd(String code, int start) {
        char quote = code.charAt(start);
        String triple = String.valueOf(quote).repeat(3);
        if (code.startsWith(triple, start)) {
            int end = code.indexOf(triple, start + 3);
            return end < 0 ? code.length() : end + 3;
        }
        int i = start + 1;
        while (i < code.length()) {
            char c = code.charAt(i);
            if (c == '\\') {
                i += 2;
            } else if (c == quote || c == '\n') {
                return i + 1;
            } else {
                i++;
            }
        }
        return code.length();
    }

    /** The lines of a TOML file that are neither blank nor comments: its entries and headers. */
    static int tomlEntries(String toml) {
        int entries = 0;
        int start = 0;
        while (start < toml.length()) {
            int end = toml.indexOf('\n', start);
            end = end < 0 ? toml.length() : end;
            int first = start;
            while (first < end && Character.isWhitespace(toml.charAt(first))) {
                first++;
            }
            if (first < end && toml.charAt(first) != '#') {
                entries++;
            }
            start = end + 1;
        }
        return entries;
    }

    /** A parse's result, or why there is none. */
    record Outcome<T>(@Nullable T value, @Nullable String overBudget) {}

    /**
     * Runs {@code parse} on a thread of its own and waits at most {@code budget} seconds for it (its
     * {@link #seconds}, or less when a {@link TotalBudget} has less left). A parse
     * that overflows its stack is over budget; one that runs out of time is too, and its thread is
     * interrupted and left behind: OpenRewrite's parsers do not stop on interrupts, and Java has no
     * other way to stop a thread, so it runs on until it ends (the log says so). Any other failure
     * is the caller's, as if the parse had run on its thread.
     */
    static <T> Outcome<T> run(String what, long budget, Callable<T> parse) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread worker = new Thread(
                null,
                () -> {
                    try {
                        result.complete(parse.call());
                    } catch (Throwable t) {
                        result.completeExceptionally(t);
                    }
                },
                "parse " + what,
                STACK_BYTES);
        worker.setDaemon(true);
        worker.start();
        try {
            return new Outcome<>(result.get(budget, TimeUnit.SECONDS), null);
        } catch (TimeoutException e) {
            worker.interrupt();
            Log.log("parse of " + what + " took longer than " + budget + " s: left to finish in the background");
            return new Outcome<>(null, "its parse took longer than " + budget + " s");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof StackOverflowError) {
                return new Outcome<>(null, "too deeply nested for the parser (stack overflow)");
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw (Exception) cause;
        }
    }
}
