package rewriteassist.runner.measure;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import rewriteassist.runner.Main;

/**
 * The compile checks' parses already made on this parse's trees, by what they read: one analysis
 * measures many whole runs (its options, the reusable recipe's candidates, refinement rounds),
 * and they change the same files — the text before is the same in every run, and often the text
 * after too. The same texts on the same classpath give the same problems, so a parse is made once.
 * Forgotten with the parse ({@link Main}); at most {@link #MAX_ENTRIES} kept (a few lines each).
 */
public final class EarlierChecks {
    /** Parses kept; the oldest goes first. */
    static final int MAX_ENTRIES = 512;

    private static final Map<String, Map<Path, List<MissingTypes.Problem>>> DONE =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Map<Path, List<MissingTypes.Problem>>> eldest) {
                    return size() > MAX_ENTRIES;
                }
            };

    /** Parses made since the runner started (the ones kept included): what the tests count. */
    private static long made;

    private EarlierChecks() {}

    static synchronized long made() {
        return made;
    }

    /** Forgets every check (before a new parse). */
    public static synchronized void forget() {
        DONE.clear();
    }

    /**
     * The problems of {@code inputs} parsed after {@code context} on {@code classpath}: kept from
     * an earlier check of the same texts, or made by {@code parse} and kept.
     */
    static Map<Path, List<MissingTypes.Problem>> of(
            List<Path> classpath,
            List<Parser.Input> inputs,
            List<Parser.Input> context,
            Supplier<Map<Path, List<MissingTypes.Problem>>> parse) {
        String key = key(classpath, inputs, context);
        synchronized (EarlierChecks.class) {
            Map<Path, List<MissingTypes.Problem>> done = DONE.get(key);
            if (done != null) {
                return done;
            }
        }
        Map<Path, List<MissingTypes.Problem>> made = Map.copyOf(parse.get());
        synchronized (EarlierChecks.class) {
            DONE.put(key, made);
            EarlierChecks.made++;
        }
        return made;
    }

    /** A digest of the classpath and of each input's path and text, in order. */
    static String key(List<Path> classpath, List<Parser.Input> inputs, List<Parser.Input> context) {
        MessageDigest digest = sha256();
        classpath.forEach(jar -> update(digest, "jar " + jar));
        update(digest, "inputs");
        inputs.forEach(input -> add(digest, input));
        update(digest, "context");
        context.forEach(input -> add(digest, input));
        return HexFormat.of().formatHex(digest.digest());
    }

    private static void add(MessageDigest digest, Parser.Input input) {
        update(digest, "file " + input.getPath());
        try (InputStream text = input.getSource(new InMemoryExecutionContext())) {
            byte[] bytes = text.readAllBytes();
            update(digest, bytes.length + ":");
            digest.update(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void update(MessageDigest digest, String text) {
        digest.update(text.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
