package rewriteassist.runner.maven;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;
import org.openrewrite.ExecutionContext;
import org.openrewrite.InMemoryExecutionContext;
import org.openrewrite.Parser;
import org.openrewrite.SourceFile;
import org.openrewrite.maven.MavenParser;
import org.openrewrite.maven.tree.MavenResolutionResult;
import rewriteassist.runner.common.Log;
import rewriteassist.runner.net.RepositoryPolicy;

/**
 * The POMs' resolutions recipe runs get ({@link Reactor#withFreshResolutions}). Maven recipes
 * change the resolution they find on a tree in place, so a run must never see what another run
 * changed: runs get the same set until one of them changes a POM (or fails), and the next run
 * then gets a new one, made from the same texts on a background thread as soon as the old set is
 * given up. Most runs (discovery's pool, Java recipes) change no POM: they share one set instead
 * of each resolving every POM again (20 ms for one POM, seconds for a reactor of twenty).
 */
final class FreshResolutions {
    /** The background thread's work: one set at a time, whichever reactor asks. */
    private static final ExecutorService AHEAD = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "fresh-resolutions");
        thread.setDaemon(true);
        return thread;
    });

    private final Path root;
    private final RepositoryPolicy policy;
    /** The text each POM was resolved from, by source path. */
    private final Map<Path, String> texts;
    /** The set runs get while none has changed it; null when there is none yet or it was given up. */
    private @Nullable Map<Path, MavenResolutionResult> current;
    /** The set being made to replace a given-up one; null when none is. */
    private @Nullable Future<Map<Path, MavenResolutionResult>> next;

    FreshResolutions(Path root, RepositoryPolicy policy, Map<Path, String> texts) {
        this.root = root;
        this.policy = policy;
        this.texts = texts;
    }

    /** The set for the next run: the current one, else the one being made, else a new one. */
    synchronized Map<Path, MavenResolutionResult> take() {
        if (current == null && next != null) {
            try {
                current = next.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                Log.log("resolving again ahead failed: " + Log.oneLine(e.getCause()));
            }
            next = null;
        }
        if (current == null) {
            current = resolve();
        }
        return current;
    }

    /**
     * After a run on the set {@link #take} gave: when the run may have changed it ({@code
     * untouched} false: it changed a POM, or it failed), the set is given up and a new one is made
     * on the background thread for the next run.
     */
    synchronized void ran(boolean untouched) {
        if (untouched || current == null) {
            return;
        }
        current = null;
        next = AHEAD.submit(this::resolve);
    }

    private Map<Path, MavenResolutionResult> resolve() {
        long started = System.nanoTime();
        ExecutionContext ctx = MavenContexts.configure(
                new InMemoryExecutionContext(t -> Log.log("resolving again: " + Log.oneLine(t))), policy);
        List<Parser.Input> inputs = new ArrayList<>();
        texts.forEach((path, text) -> inputs.add(new Parser.Input(
                root.resolve(path), () -> new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))));
        Map<Path, MavenResolutionResult> fresh = new HashMap<>();
        for (SourceFile pom :
                MavenParser.builder().build().parseInputs(inputs, root, ctx).toList()) {
            pom.getMarkers().findFirst(MavenResolutionResult.class).ifPresent(r -> fresh.put(pom.getSourcePath(), r));
        }
        Log.log("  POMs resolved again in " + Log.seconds(started) + " s");
        return fresh;
    }
}
