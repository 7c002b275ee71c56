package rewriteassist.runner.common;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Files written to a temporary name and renamed: readers never see half a file. */
public final class AtomicFiles {
    private AtomicFiles() {}

    /** Renames {@code from} to {@code to}, replacing it, in one step where the file system can. */
    public static void rename(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
