package rewriteassist.runner.openrewrite;

import java.util.List;
import org.openrewrite.LargeSourceSet;
import org.openrewrite.SourceFile;
import org.openrewrite.internal.InMemoryLargeSourceSet;

/**
 * rewrite-core's {@code InMemoryLargeSourceSet} (internal): its only {@link LargeSourceSet}, and the
 * one rewrite-maven-plugin runs recipes on, so a recipe sees here what it sees there.
 */
public final class SourceSets {
    private SourceSets() {}

    /** The trees as the source set a recipe runs on. */
    public static LargeSourceSet inMemory(List<SourceFile> trees) {
        return new InMemoryLargeSourceSet(trees);
    }
}
