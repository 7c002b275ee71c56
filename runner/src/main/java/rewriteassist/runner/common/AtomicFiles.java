package rewriteassist.runner.common;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Files written to a temporary name and renamed: readers never see half a file. */
public final class AtomicFiles {
    private AtomicFiles() {}

    /**
     * Writes {@code bytes} to {@code file} through a temporary file of a name of its own in the same
     * folder (runners in parallel may write the same file), removed should the rename fail.
     */
    public static void write(Path file, byte[] bytes) throws IOException {
        Path folder = file.toAbsolutePath().getParent();
        Files.createDirectories(folder);
        Path temporary = Files.createTempFile(folder, "." + file.getFileName(), ".tmp");
        try {
            Files.write(temporary, bytes);
            rename(temporary, file);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /** Renames {@code from} to {@code to}, replacing it, in one step where the file system can. */
    public static void rename(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
