package rewriteassist.runner.maven;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
 *
 * <p>Runs at once ({@code RunThreads}) never share a set: a run holds the set it took (by its
 * thread) until it {@link #ran}; another run meanwhile gets another set that no run holds.
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
    /** Sets no run changed and none holds now, the next to give first. */
    private final Deque<Map<Path, MavenResolutionResult>> idle = new ArrayDeque<>();
    /** The set each running run holds, by its thread. */
    private final Map<Thread, Map<Path, MavenResolutionResult>> held = new HashMap<>();
    /** The set being made to replace a given-up one; null when none is. */
    private @Nullable Future<Map<Path, MavenResolutionResult>> next;

    FreshResolutions(Path root, RepositoryPolicy policy, Map<Path, String> texts) {
        this.root = root;
        this.policy = policy;
        this.texts = texts;
    }

    /**
     * The set for this thread's run: the one it holds already, else an idle one, else the one
     * being made, else a new one (resolved outside the lock: another run may take meanwhile).
     */
    Map<Path, MavenResolutionResult> take() {
        Thread thread = Thread.currentThread();
        Future<Map<Path, MavenResolutionResult>> ahead;
        synchronized (this) {
            Map<Path, MavenResolutionResult> set = held.get(thread);
            if (set == null) {
                set = idle.pollFirst();
            }
            if (set != null) {
                held.put(thread, set);
                return set;
            }
            ahead = next;
            next = null;
        }
        Map<Path, MavenResolutionResult> set = null;
        if (ahead != null) {
            try {
                set = ahead.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                Log.log("resolving again ahead failed: " + Log.oneLine(e.getCause()));
            }
        }
        if (set == null) {
            set = resolve();
        }
        synchronized (this) {
            held.put(thread, set);
        }
        return set;
    }

    /**
     * After this thread's run on the set {@link #take} gave: when the run may have changed it
     * ({@code untouched} false: it changed a POM, or it failed), the set is given up and, when no
     * other is idle, a new one is made on the background thread for the next run.
     */
    synchronized void ran(boolean untouched) {
        Map<Path, MavenResolutionResult> set = held.remove(Thread.currentThread());
        if (set == null) {
            return;
        }
        if (untouched) {
            idle.addFirst(set);
        } else if (idle.isEmpty() && next == null) {
            next = AHEAD.submit(this::resolve);
        }
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
