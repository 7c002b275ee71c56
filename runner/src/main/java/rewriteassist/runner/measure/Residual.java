package rewriteassist.runner.measure;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.openrewrite.Result;
import org.openrewrite.SourceFile;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.parse.RepositoryParser;

/**
 * How much of an {@link OldLibrary} the repository uses before and after the whole recipe: the
 * sum of {@link OldUses} over every file. A parse can have thousands of files and a recipe
 * changes few, so the counts of the parse's own trees are made once per parse and spec and kept
 * ({@link #forget} drops them with the trees); after a run only the files it changed are counted
 * again: after = before − their counts before + their counts after (a deleted file counts 0
 * after, a new one 0 before).
 */
public final class Residual {
    /**
     * The whole run's {@code residual}: totals, files still using the old library, sample lines;
     * {@code outOfReach}: how many of the uses after are in POMs that did not resolve here, which
     * no Maven recipe could change on this machine (where their parent can be downloaded, it can).
     */
    @JsonPropertyOrder({"before", "after", "files_after", "out_of_reach", "samples"})
    public record Counts(
            int before,
            int after,
            @JsonProperty("files_after") int filesAfter,
            @JsonProperty("out_of_reach") int outOfReach,
            List<String> samples) {}

    /** The parse whose counts are kept, and its counts (files with none left out) per spec. */
    private static RepositoryParser.@Nullable Outcome kept;

    private static final Map<OldLibrary, Map<Path, OldUses.Count>> COUNTS = new HashMap<>();

    private Residual() {}

    /** Forgets the kept counts (before a new parse: the old trees' samples must not outlive them). */
    public static synchronized void forget() {
        kept = null;
        COUNTS.clear();
    }

    /**
     * The residual of {@code spec} on {@code parsed}'s trees and after {@code changes} (the whole
     * run's counted results); {@code keep}: {@code parsed} is the parse's own trees, whose counts
     * are kept for the next request.
     */
    static Counts measure(RepositoryParser.Outcome parsed, boolean keep, List<Result> changes, OldLibrary spec) {
        Map<Path, OldUses.Count> before = keep ? kept(parsed, spec) : countAll(parsed.trees(), spec);
        int beforeTotal =
                before.values().stream().mapToInt(OldUses.Count::count).sum();
        int after = beforeTotal;
        Set<Path> changed = new HashSet<>();
        Map<Path, OldUses.Count> changedAfter = new TreeMap<>();
        for (Result change : changes) {
            SourceFile was = change.getBefore();
            if (was != null) {
                changed.add(was.getSourcePath());
                after -= before.getOrDefault(was.getSourcePath(), OldUses.Count.NONE)
                        .count();
            }
            SourceFile now = change.getAfter();
            if (now != null) {
                OldUses.Count count = OldUses.of(now, spec);
                after += count.count();
                if (count.count() > 0) {
                    changedAfter.put(now.getSourcePath(), count);
                }
            }
        }
        // What the recipe changed and still uses the old library first: that is what it missed.
        List<OldUses.Count> left = new ArrayList<>(changedAfter.values());
        for (Map.Entry<Path, OldUses.Count> unchanged : before.entrySet()) {
            if (!changed.contains(unchanged.getKey())) {
                left.add(unchanged.getValue());
            }
        }
        List<String> samples = new ArrayList<>();
        left.forEach(count -> samples.addAll(count.samples()));
        int outOfReach = left.stream()
                .filter(OldUses.Count::outOfReach)
                .mapToInt(OldUses.Count::count)
                .sum();
        return new Counts(
                beforeTotal,
                after,
                left.size(),
                outOfReach,
                List.copyOf(samples.subList(0, Math.min(OldUses.SAMPLES, samples.size()))));
    }

    /** The counts of the parse's own trees, made once per parse and spec. */
    private static synchronized Map<Path, OldUses.Count> kept(RepositoryParser.Outcome parsed, OldLibrary spec) {
        if (kept != parsed) {
            kept = parsed;
            COUNTS.clear();
        }
        return COUNTS.computeIfAbsent(spec, s -> countAll(parsed.trees(), s));
    }

    /** The files that use the old library, by path (sorted), with their counts. */
    private static Map<Path, OldUses.Count> countAll(List<SourceFile> trees, OldLibrary spec) {
        long started = System.nanoTime();
        Map<Path, OldUses.Count> counts = new TreeMap<>();
        for (SourceFile tree : trees) {
            OldUses.Count count = OldUses.of(tree, spec);
            if (count.count() > 0) {
                counts.put(tree.getSourcePath(), count);
            }
        }
        Log.log("  residual of " + trees.size() + " files counted in " + Log.seconds(started) + " s");
        return counts;
    }
}
