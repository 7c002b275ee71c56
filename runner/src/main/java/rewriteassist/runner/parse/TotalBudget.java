package rewriteassist.runner.parse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * What the TOML files of one parse may cost together. {@link FileBudget} bounds each file, not
 * their sum: the TOML parser's time grows with the square of a table's entries, so a catalog just
 * under the entry limit can take its whole minute (999 entries in one table, with the client
 * compiler on two busy cores), and three such catalogs took three minutes, each within its own
 * budget, while the parses that ran out of time went on in the background.
 *
 * <p>So all the TOML files of a parse together get what two files at the limits get: the cost of
 * two files at the entry limit, where a file costs its entries squared as the parser's time does
 * (many small files, a monorepo's {@code Cargo.toml}s, cost little; a third catalog near the limit
 * is refused before it is read), and twice a file's time (each parse gets what is left, at most
 * its own {@link FileBudget#seconds}). Once the budget is spent, the TOML files after are kept as
 * plain text and named in one warning.
 *
 * <p>Build scripts have no total: the nesting bound keeps each one's parse short, and a large
 * build's hundreds of scripts must all be read for its model.
 */
final class TotalBudget {
    /** How many files at the limits all the TOML files of a parse may cost together. */
    static final int FILES = 2;

    /** The cost of all the TOML files of a parse: {@link #FILES} at the entry limit, entries squared. */
    static final long MAX_TOML_COST = (long) FILES * FileBudget.MAX_TOML_ENTRIES * FileBudget.MAX_TOML_ENTRIES;

    private final String kind;
    private final boolean limited;
    private final long maxNanos;
    private long cost;
    private long nanos;
    /** What the budget ran out of, once it has. */
    private @Nullable String spentOn;

    private final List<String> refused = new ArrayList<>();

    private TotalBudget(String kind, boolean limited) {
        this.kind = kind;
        this.limited = limited;
        this.maxNanos = TimeUnit.SECONDS.toNanos(FILES * FileBudget.seconds());
    }

    /** The budget of a parse's TOML files. */
    static TotalBudget toml() {
        return new TotalBudget("TOML", true);
    }

    /** No total: each file has its own budget only. */
    static TotalBudget none() {
        return new TotalBudget("", false);
    }

    /**
     * Whether {@code file} is refused because the budget is spent (then it is named in the
     * {@link #warning}); if not, its cost is counted, and a file that would exceed the budget
     * spends it and is refused.
     */
    boolean refuses(Path file, Path root) {
        if (!limited) {
            return false;
        }
        if (spentOn == null) {
            long entries = entries(file);
            if (cost + entries * entries <= MAX_TOML_COST) {
                cost += entries * entries;
                return false;
            }
            spentOn = "what " + FILES + " files of " + FileBudget.MAX_TOML_ENTRIES
                    + " entries cost, a file costing its entries squared";
        }
        refused.add(root.relativize(file).toString());
        return true;
    }

    /** The seconds the next file's parse may take: its own budget, or what is left if that is less. */
    long seconds() {
        if (!limited) {
            return FileBudget.seconds();
        }
        return Math.min(FileBudget.seconds(), TimeUnit.NANOSECONDS.toSeconds(maxNanos - nanos));
    }

    /** Counts a parse's time; once none is left, the budget is spent. */
    void spend(long parseNanos) {
        nanos += parseNanos;
        if (limited && spentOn == null && seconds() <= 0) {
            spentOn = TimeUnit.NANOSECONDS.toSeconds(maxNanos) + " s of parsing";
        }
    }

    /** Why a file was refused, for {@code unparsed}. */
    String why() {
        return "over the parse's total budget for " + kind + ": " + spentOn;
    }

    /** The one warning that names the files refused, or null when there were none. */
    @Nullable
    String warning() {
        if (refused.isEmpty()) {
            return null;
        }
        return RepositoryParser.Warnings.naming(refused) + ": kept as plain text, not parsed: the " + kind
                + " files parsed before took the parse's total budget for " + kind + " (" + spentOn + ")";
    }

    /** The entries of a TOML file ({@link FileBudget#tomlEntries}); none when it cannot be read. */
    private static long entries(Path file) {
        try {
            return FileBudget.tomlEntries(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            // Unreadable (not UTF-8, gone): the parser will say so in its own way.
            return 0;
        }
    }
}
