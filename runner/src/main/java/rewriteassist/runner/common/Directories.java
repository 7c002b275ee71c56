package rewriteassist.runner.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Folders the runner makes and empties again (compiled templates, exported data tables). */
public final class Directories {
    private Directories() {}

    /** Deletes {@code directory} and everything in it, deepest first; nothing when it is not there. */
    public static void delete(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> all = Files.walk(directory)) {
            for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
