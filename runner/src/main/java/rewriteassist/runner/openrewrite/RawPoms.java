package rewriteassist.runner.openrewrite;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.openrewrite.maven.internal.RawPom;
import org.openrewrite.maven.tree.Pom;

/** rewrite-maven's {@code RawPom} (internal): a POM's text read as written, nothing resolved. */
public final class RawPoms {
    private RawPoms() {}

    /** The POM {@code text} as rewrite-maven reads it before any resolution, at {@code path}. */
    public static Pom read(String text, Path path) {
        return RawPom.parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), null)
                .toPom(path, null);
    }
}
