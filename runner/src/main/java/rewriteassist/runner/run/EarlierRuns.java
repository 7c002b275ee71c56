package rewriteassist.runner.run;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import rewriteassist.runner.maven.Reactor;
import rewriteassist.runner.parse.RepositoryParser;
import rewriteassist.runner.results.StepRun;

/**
 * The runs of catalog recipes on a parse's unchanged trees, kept while that parse is the last:
 * one analysis asks for the same recipe with the same options on the same trees more than once
 * (the wide option's composite is in discovery's pool too; refinement runs again what discovery
 * chose), and on the same trees a recipe makes the same changes. Each run had resolutions of its
 * own ({@link Reactor#withFreshResolutions}), so no run's changes to them are in another's result.
 * Kept only: runs without an error, of a recipe the request's files do not define (a name they
 * define may mean another recipe in the next request), within {@link #MAX_CHARS} of diffs.
 */
public final class EarlierRuns {
    /** The diffs kept, in characters: a recipe that reformats a large repository is run again. */
    static final long MAX_CHARS = 64L << 20;

    private static RepositoryParser.@Nullable Outcome base;
    private static final Map<String, StepRun> RUNS = new HashMap<>();
    private static long chars;

    private EarlierRuns() {}

    /** Forgets every run (before a new parse: the old trees must not stay alive through it). */
    public static synchronized void forget() {
        base = null;
        RUNS.clear();
        chars = 0;
    }

    /** The run on {@code on}'s trees of the recipe {@code key} names, if one was kept. */
    static synchronized Optional<StepRun> find(RepositoryParser.Outcome on, String key) {
        return on == base ? Optional.ofNullable(RUNS.get(key)) : Optional.empty();
    }

    /** Keeps {@code run} of the recipe {@code key} names, made on {@code on}'s trees. */
    static synchronized void keep(RepositoryParser.Outcome on, String key, StepRun run) {
        if (on != base) {
            base = on;
            RUNS.clear();
            chars = 0;
        }
        if (run.error() != null || chars + run.diff().length() > MAX_CHARS) {
            return;
        }
        chars += run.diff().length();
        RUNS.put(key, run);
    }
}
