package rewriteassist.runner;

import java.util.Optional;
import rewriteassist.runner.common.Log;

/**
 * Ends the runner when the process that started it is gone, even in the middle of a request: a
 * runner whose {@code rewrite-assist} was killed ({@code kill -9}, an OOM killer, a cancelled CI
 * job) has nobody to answer and would otherwise parse or download on, at full CPU, for as long
 * as the request takes.
 *
 * <p>Why a watch in the JVM and not the parent's {@code PR_SET_PDEATHSIG}: that signal follows
 * the <em>thread</em> that spawned the child, and the Rust side starts the runner from a
 * validation worker thread that ends long before the session does; it is also Linux only. Why
 * not the end of stdin: the main thread reads stdin only between requests. A dying process's
 * children are given to another parent (init or a subreaper) at once, even while the dead one
 * waits to be reaped, so the runner's own parent pid changing is the sign; it cannot be fooled by
 * a new process reusing the old pid.
 */
final class ParentWatch {
    /** How often the parent is checked: a few reads of {@code /proc} a second cost nothing. */
    static final long INTERVAL_MILLIS = 500;

    /** Exit status when the parent is gone (nobody reads it; it tells a core dump's reader). */
    static final int ORPHANED = 4;

    private ParentWatch() {}

    /** Starts the watch on a daemon thread; does nothing for a runner that has no parent. */
    static void start() {
        Optional<Long> parent = parentPid();
        if (parent.isEmpty()) {
            return;
        }
        long original = parent.get();
        Thread watch = new Thread(() -> watch(original), "parent-watch");
        watch.setDaemon(true);
        watch.start();
    }

    /** Whether the runner's parent is no longer the process {@code original}. */
    static boolean orphaned(long original) {
        return parentPid().map(pid -> pid != original).orElse(true);
    }

    static Optional<Long> parentPid() {
        return ProcessHandle.current().parent().map(ProcessHandle::pid);
    }

    private static void watch(long original) {
        while (true) {
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (orphaned(original)) {
                Log.log("the parent process " + original + " is gone; stopping");
                // halt, not exit: shutdown hooks could wait on the very work that is abandoned.
                Runtime.getRuntime().halt(ORPHANED);
            }
        }
    }
}
