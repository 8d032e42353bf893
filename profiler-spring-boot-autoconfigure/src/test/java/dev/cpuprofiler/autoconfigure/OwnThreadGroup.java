package dev.cpuprofiler.autoconfigure;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a test's code in a thread group of its own. A thread belongs to the group of the thread that created it, so
 * every thread a context started from here makes (the profiler's sampler, policy, session threads, a web server's
 * workers and whatever they start in turn) is in this group, and a test can tell them from the threads of contexts
 * other tests left cached in the same JVM, which have the very same names.
 */
public final class OwnThreadGroup {

    private static final AtomicInteger COUNT = new AtomicInteger();

    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    private final ThreadGroup group = new ThreadGroup("test-" + COUNT.incrementAndGet());

    /** Runs {@code body} on a new thread of the group and waits for it; whatever it throws is thrown here. */
    public void run(Body body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread = new Thread(group, () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, group.getName() + "-main");
        thread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        thread.start();
        thread.join();
        Throwable t = failure.get();
        if (t instanceof Exception e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }

    /** The live threads of the group (and of groups under it) whose name starts with {@code prefix}. */
    public List<Thread> alive(String prefix) {
        Thread[] threads = new Thread[group.activeCount() + 64];
        int n = group.enumerate(threads, true);
        return Arrays.stream(threads, 0, n).filter(t -> t.isAlive() && t.getName().startsWith(prefix)).toList();
    }
}
