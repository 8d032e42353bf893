package dev.cpuprofiler.internal.threads;

/**
 * Per-thread CPU time, behind an interface so that tests can script it. The real one is
 * {@link ManagementThreadCpuReader}.
 *
 * <p>Nothing here may stop the world: no stack traces, no {@code dumpAllThreads}. Thread ids are the JVM's
 * (never reused while the JVM lives), so a dead id never comes back as another thread.
 */
public interface ThreadCpuReader {

    /** Whether per-thread CPU time can be read at all; when false the other methods return nothing useful. */
    boolean available();

    /** The ids of the live platform threads (virtual threads are not listed; their carriers are). */
    long[] threadIds();

    /**
     * Cumulative CPU time (user + system) of each thread, in nanoseconds, in the order asked;
     * {@code -1} for a thread that has ended (or cannot be read).
     */
    long[] cpuTimes(long[] ids);

    /** The current name of each thread, in the order asked; {@code null} for a thread that has ended. */
    String[] names(long[] ids);

    /**
     * How many threads have been started since the JVM started (the threads {@link #threadIds()} can list), or -1
     * when unknown. Together with {@link #liveThreadCount()}: two counters that tell whether a listing could have
     * changed, far cheaper than taking one.
     */
    default long startedThreadCount() {
        return -1;
    }

    /** How many of those threads are alive now, or -1 when unknown. */
    default long liveThreadCount() {
        return -1;
    }
}
