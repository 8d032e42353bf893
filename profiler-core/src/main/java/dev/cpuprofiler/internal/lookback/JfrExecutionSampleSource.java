package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * Look-back samples from JFR's {@code jdk.ExecutionSample}, streamed: the JVM's own sampler thread walks at most
 * five threads running Java code per period, so the cost does not grow with the thread count, works on every
 * JDK 17+, and uses no SIGPROF (nothing to collide with async-profiler or JFR's CPU-time sampler). Native-method
 * samples are left out on purpose: they catch threads waiting in native calls (socket reads), which would fill an
 * idle application's ring with waiting, not CPU.
 *
 * <p>Samples reach the sink as JFR flushes, about once a second. {@link Recording#handOver()} stops the sampling at
 * once and lets the next flush deliver the samples up to it, where closing the stream at once would drop up to the
 * last second, the most recent part of the look-back; {@link Recording#stop()} is the same and waits for that flush
 * (see {@link JfrSampleStream}).
 */
final class JfrExecutionSampleSource implements LookbackSource {

    static final String EVENT = JfrSampleEvent.EXECUTION.name;
    /** Longest wait, after a hand-over or stop, for the flush that delivers the last samples. */
    static final Duration FLUSH_WAIT = Duration.ofSeconds(2);

    private final int maxStackDepth;
    private final ThreadFactory threadFactory;
    private final DiskSpaceGuard diskSpace;
    private final JfrPeriodicTaskKeeper jfrKeeper;

    /** With the automatic free-space floor under JFR's repository. */
    public JfrExecutionSampleSource(int maxStackDepth, ThreadFactory threadFactory) {
        this(maxStackDepth, threadFactory, DiskSpaceGuard.auto());
    }

    /**
     * @param maxStackDepth frames kept per sample (JFR itself keeps 64 unless {@code stackdepth} says more)
     * @param threadFactory makes the thread each stream runs on, and a short-lived one per hand-over that bounds the
     *        wait for JFR's flush (made daemons here)
     * @param diskSpace the free space kept under JFR's repository: the stream writes there all the time, and JFR
     *        stops the JVM when it cannot; the stream does not start below the floor and ends when it gets there
     */
    public JfrExecutionSampleSource(int maxStackDepth, ThreadFactory threadFactory, DiskSpaceGuard diskSpace) {
        this(maxStackDepth, threadFactory, diskSpace, JfrPeriodicTaskKeeper.none());
    }

    /** @param jfrKeeper told before each stream starts (see {@link JfrPeriodicTaskKeeper}) */
    public JfrExecutionSampleSource(int maxStackDepth, ThreadFactory threadFactory, DiskSpaceGuard diskSpace,
            JfrPeriodicTaskKeeper jfrKeeper) {
        this.maxStackDepth = maxStackDepth;
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.diskSpace = Objects.requireNonNull(diskSpace, "diskSpace");
        this.jfrKeeper = Objects.requireNonNull(jfrKeeper, "jfrKeeper");
    }

    @Override
    public String description() {
        return EVENT;
    }

    @Override
    public Recording start(Duration period, LookbackSource.Sink sink) throws LookbackSource.UnavailableException {
        return JfrSampleStream.start(JfrSampleEvent.EXECUTION, period, sink, maxStackDepth, threadFactory, diskSpace,
                jfrKeeper, FLUSH_WAIT);
    }
}
