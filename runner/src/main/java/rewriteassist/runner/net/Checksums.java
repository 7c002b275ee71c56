package rewriteassist.runner.net;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ipc.http.HttpSender;
import org.openrewrite.maven.tree.MavenRepository;

/**
 * A downloaded jar checked against the checksum its repository publishes beside it
 * ({@code .sha1}, else {@code .sha256}), as Maven does, before it goes into the shared local
 * repository: a jar that does not match is not kept. A repository that offers neither is noted
 * (the jar is kept, unverified), since many private repositories publish none.
 */
final class Checksums {
    /** A checksum file is one line; anything longer is not one. */
    private static final int MAX_CHECKSUM_BYTES = 1024;

    private Checksums() {}

    /** What the check found. */
    enum Verdict {
        MATCHES,
        MISMATCH,
        NONE_OFFERED
    }

    /** The digests of one artifact's bytes. */
    record Digests(String sha1, String sha256) {}

    /** Both digests of a file's bytes, computed while they are copied. */
    static final class Digesting {
        private final MessageDigest sha1 = digest("SHA-1");
        private final MessageDigest sha256 = digest("SHA-256");

        void update(byte[] bytes, int offset, int length) {
            sha1.update(bytes, offset, length);
            sha256.update(bytes, offset, length);
        }

        Digests digests() {
            return new Digests(
                    HexFormat.of().formatHex(sha1.digest()), HexFormat.of().formatHex(sha256.digest()));
        }
    }

    /** Checks {@code digests} against the checksum published at {@code artifactUri}. */
    static Verdict verify(HttpSender http, MavenRepository repository, String artifactUri, Digests digests) {
        String sha1 = published(http, repository, artifactUri + ".sha1");
        if (sha1 != null) {
            return sha1.equals(digests.sha1()) ? Verdict.MATCHES : Verdict.MISMATCH;
        }
        String sha256 = published(http, repository, artifactUri + ".sha256");
        if (sha256 != null) {
            return sha256.equals(digests.sha256()) ? Verdict.MATCHES : Verdict.MISMATCH;
        }
        return Verdict.NONE_OFFERED;
    }

    /** The hex digest a checksum file holds (its first word), or null when there is none. */
    private static @Nullable String published(HttpSender http, MavenRepository repository, String uri) {
        HttpSender.Request.Builder request = http.get(uri);
        if (repository.getUsername() != null && repository.getPassword() != null) {
            request = request.withBasicAuthentication(repository.getUsername(), repository.getPassword());
        }
        try (HttpSender.Response response = http.send(request.build())) {
            if (!response.isSuccessful()) {
                return null;
            }
            try (InputStream body = response.getBody()) {
                byte[] bytes = body.readNBytes(MAX_CHECKSUM_BYTES);
                String text = new String(bytes, StandardCharsets.US_ASCII).strip();
                String first = text.split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
                return first.matches("[0-9a-f]{40}|[0-9a-f]{64}") ? first : null;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every JDK", e);
        }
    }
}
