package rewriteassist.runner.results;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.common.AtomicFiles;
import rewriteassist.runner.common.Jackson;
import rewriteassist.runner.common.Log;

/**
 * A results file: the protocol version, the request's id and, at the same level, the request's
 * {@link Results}. The id is null only for a request file whose id could not be read (its answer
 * still goes to the {@code output} it names).
 */
public record ResultsFile(int protocol, @Nullable String id, @JsonUnwrapped Results results) {
    /** The protocol version of requests and results files. */
    public static final int PROTOCOL = 1;

    public static ResultsFile of(@Nullable String id, Results results) {
        return new ResultsFile(PROTOCOL, id, results);
    }

    /** Written to a temporary name in the same directory and renamed: readers never see half a file. */
    public void write(Path output) {
        Path partial = output.resolveSibling(
                output.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            Files.write(partial, Jackson.MAPPER.writeValueAsBytes(this));
            AtomicFiles.rename(partial, output);
        } catch (IOException e) {
            Log.log("cannot write " + output + ": " + e);
        }
    }
}
