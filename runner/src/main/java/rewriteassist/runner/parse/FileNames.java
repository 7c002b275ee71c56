package rewriteassist.runner.parse;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The paths of the names git lists. Git keeps a file name as bytes, Java as a string decoded with
 * the file system's encoding ({@code sun.jnu.encoding}: UTF-8 under a UTF-8 locale). A name that is
 * not UTF-8 (a Latin-1 {@code caf\xE9.txt} committed from an old Windows or Latin-1 machine) has no
 * string that names its file: decoded, it becomes {@code caf\uFFFD.txt}, which names nothing, and
 * whatever opens the file by that string fails. (OpenRewrite's file walk listed it that way, the
 * parsers and then the plain-text fallback could not read it, and the whole parse failed.)
 *
 * <p>So the path of such a name is made from its bytes, through a {@code file:} URI (whose escapes
 * are bytes): that path opens the file, and its string is the decoded name, the one the CLI gives
 * the file when it decodes git's diffs. The caller keeps such a file as plain text and names it in
 * the warnings. A UTF-8 name the file system's encoding cannot hold (any non-ASCII name when the
 * runner runs without a UTF-8 locale) is such a name too.
 */
final class FileNames {
    /** The file system's encoding for names: what a path's string is decoded with. */
    private static final Charset NAMES = namesCharset();

    /**
     * A listed file: its path, its name as git lists it, and why that name has no string of its own
     * (null when it has one).
     */
    record Named(Path path, byte[] name, @Nullable String odd) {}

    private FileNames() {}

    private static Charset namesCharset() {
        try {
            return Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            return StandardCharsets.UTF_8;
        }
    }

    /** The file that {@code name} (the bytes git lists, relative to {@code root}) names. */
    static Named of(Path root, byte[] name) {
        String text = utf8(name);
        if (text != null && Arrays.equals(text.getBytes(NAMES), name)) {
            return new Named(root.resolve(text), name, null);
        }
        String odd = text == null
                ? "the name is not UTF-8"
                : "the name is not in the runner's file name encoding, " + NAMES.name()
                        + " (run it with a UTF-8 locale)";
        return new Named(fromBytes(root, name), name, odd);
    }

    /** The path of {@code name} under {@code root}, byte for byte, whatever its string would be. */
    static Path fromBytes(Path root, byte[] name) {
        String base = root.toAbsolutePath().toUri().toString();
        StringBuilder uri = new StringBuilder(base);
        if (!base.endsWith("/")) {
            uri.append('/');
        }
        for (byte b : name) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-._~/".indexOf(c) >= 0)) {
                uri.append(c);
            } else {
                uri.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return Path.of(URI.create(uri.toString()));
    }

    /** {@code name} decoded as UTF-8, or null when it is not UTF-8. */
    static @Nullable String utf8(byte[] name) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(name))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /**
     * {@code name} for a warning: UTF-8, each byte that is not written as {@code \xE9}, so that the
     * user can tell which file it is (the decoded name has {@code U+FFFD} for every such byte).
     */
    static String shown(byte[] name) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(name);
        // At most four characters a byte: `\xE9`.
        CharBuffer out = CharBuffer.allocate(4 * name.length);
        CoderResult result = decoder.decode(in, out, true);
        while (result.isError()) {
            for (int i = 0; i < result.length(); i++) {
                out.put(String.format("\\x%02X", in.get() & 0xff));
            }
            result = decoder.decode(in, out, true);
        }
        decoder.flush(out);
        return out.flip().toString();
    }
}
