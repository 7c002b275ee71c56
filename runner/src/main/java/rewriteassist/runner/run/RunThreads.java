package rewriteassist.runner.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The threads a request's independent recipe runs share: its steps and its whole run each start
 * from the same parsed trees (immutable), with an execution context and resolutions of their own
 * ({@link rewriteassist.runner.maven.Reactor#withFreshResolutions}), so they may run at once. A
 * runner alone on the machine gets one thread per CPU; a batch's runners share the CPUs (the
 * {@value #PROPERTY} property, set by rewrite-assist; 1: every run on the request's thread, in
 * order).
 */
final class RunThreads {
    static final String PROPERTY = "rewriteassist.runner.threads";

    /** The threads; null: one, the request's own. */
    private static volatile @Nullable ExecutorService pool = pool(Integer.getInteger(PROPERTY, 1));

    private RunThreads() {}

    private static @Nullable ExecutorService pool(int threads) {
        if (threads <= 1) {
            return null;
        }
        AtomicInteger made = new AtomicInteger();
        return Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "recipe-run-" + made.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Sets the number of threads (tests: the same runner with one and with two). */
    static synchronized void threads(int count) {
        ExecutorService old = pool;
        pool = pool(count);
        if (old != null) {
            old.shutdown();
        }
    }

    /** Whether runs may go at once. */
    static boolean parallel() {
        return pool != null;
    }

    /**
     * Starts {@code task} on the runs' threads (on this thread, now, when there is one thread),
     * with this thread's context class loader: a request's learned recipes load through it ({@code
     * LearnedRecipes.activate}).
     */
    static <T> Pending<T> start(Supplier<T> task) {
        ExecutorService threads = pool;
        if (threads == null) {
            return new Pending<>(null, task.get());
        }
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return new Pending<>(
                threads.submit(() -> {
                    Thread thread = Thread.currentThread();
                    ClassLoader before = thread.getContextClassLoader();
                    thread.setContextClassLoader(context);
                    try {
                        return task.get();
                    } finally {
                        thread.setContextClassLoader(before);
                    }
                }),
                null);
    }

    /** Each task's result, in order; they run at once when there are threads for it. */
    static <T> List<T> all(List<Supplier<T>> tasks) {
        List<Pending<T>> started = new ArrayList<>();
        tasks.forEach(task -> started.add(start(task)));
        List<T> out = new ArrayList<>();
        started.forEach(pending -> out.add(pending.get()));
        return out;
    }

    /** A task started on the runs' threads. */
    static final class Pending<T> {
        private final @Nullable Future<T> future;
        private final @Nullable T done;

        private Pending(@Nullable Future<T> future, @Nullable T done) {
            this.future = future;
            this.done = done;
        }

        /** The task's result; what it threw, it throws here. */
        T get() {
            Future<T> running = future;
            if (running == null) {
                return done;
            }
            try {
                return running.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while a recipe ran", e);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof RuntimeException runtime) {
                    throw runtime;
                }
                if (cause instanceof Error error) {
                    throw error;
                }
                throw new IllegalStateException(cause);
            }
        }
    }
}
