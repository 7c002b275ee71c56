package rewriteassist.runner.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.parse.FileKind;

/**
 * The results of a {@code parse}: what the repository became, what did not parse, what could not
 * be resolved, the modules, and (when the request named the PR's head files) the types they use.
 */
@JsonPropertyOrder({"ok", "seconds", "files", "unparsed", "warnings", "modules", "types"})
public record ParseResults(
        double seconds,
        FileCounts files,
        List<Unparsed> unparsed,
        List<String> warnings,
        List<ParsedModule> modules,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Types types)
        implements Results {
    @Override
    public boolean ok() {
        return true;
    }

    public ParseResults withTypes(Types types) {
        return new ParseResults(seconds, files, unparsed, warnings, modules, types);
    }

    /** How many files were parsed, by what each became ({@link FileKind}, all of them), and how many were too large. */
    public record FileCounts(
            int total,
            @JsonProperty("by_kind") Map<String, Integer> byKind,
            @JsonProperty("binary_skipped") int binarySkipped) {}

    /** A file kept as plain text, and why its parse failed (one line). */
    public record Unparsed(String path, String error) {}

    /**
     * A Maven module or Gradle project: its build file, coordinates, the size of its test classpath
     * and how many of its declared dependencies have no jar.
     */
    @JsonPropertyOrder({"pom", "gav", "classpath_jars", "unresolved"})
    public record ParsedModule(
            String pom, String gav, @JsonProperty("classpath_jars") int classpathJars, int unresolved) {}

    /** The types the base and head versions of the PR's Java files use, by path. */
    @JsonPropertyOrder({"base", "head", "seconds"})
    public record Types(Map<String, List<String>> base, Map<String, List<String>> head, double seconds) {}
}
