package rewriteassist.runner.common;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import rewriteassist.runner.net.CredentialScope;

/**
 * Credentials never reach the runner's log or the lines of its results. A repository URL with
 * {@code user:password@} comes back in rewrite-maven's messages, and a server's password could be
 * echoed by a server's error page: every line the runner logs or reports passes {@link #mask},
 * which masks the password of each URL and every credential the runner holds (the settings'
 * servers', the Gradle repositories'), as {@link CredentialScope} learns them. The Rust side masks
 * what it reads again, with the values it knows.
 */
public final class Redaction {
    static final String MASK = "***";

    /** Shorter values are not masked: they would mask ordinary words. */
    private static final int MIN_SECRET_CHARS = 4;

    /** {@code scheme://user:password@}: the password is everything up to the {@code @}. */
    private static final Pattern USER_INFO =
            Pattern.compile("(\\b[A-Za-z][A-Za-z0-9+.-]*://[^/\\s:@'\"<>]*:)[^/\\s@'\"<>]+@");

    private static final List<String> SECRETS = new CopyOnWriteArrayList<>();

    private Redaction() {}

    /** From now on, {@code value} is masked wherever it appears. */
    public static void remember(String value) {
        String secret = value.strip();
        if (secret.length() >= MIN_SECRET_CHARS && !SECRETS.contains(secret)) {
            SECRETS.add(secret);
            // The longest first: a secret that contains another is masked whole.
            SECRETS.sort(Comparator.comparingInt(String::length).reversed());
        }
    }

    /** {@code text} with the passwords of URLs and every remembered secret masked. */
    static String mask(String text) {
        String out = USER_INFO.matcher(text).replaceAll("$1" + MASK + "@");
        for (String secret : SECRETS) {
            if (out.contains(secret)) {
                out = out.replace(secret, MASK);
            }
        }
        return out;
    }
}
