package dev.cpuprofiler.lookback;

import dev.cpuprofiler.session.engine.DiskSpaceGuard;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import jdk.jfr.FlightRecorder;
import jdk.jfr.consumer.RecordingStream;

/**
 * Look-back samples from JFR's {@code jdk.ExecutionSample}, streamed: the JVM's own sampler thread walks at most
 * five threads running Java code per period, so the cost does not grow with the thread count, works on every
 * JDK 17+, and uses no SIGPROF (nothing to collide with async-profiler or JFR's CPU-time sampler). Native-method
 * samples are left out on purpose: they catch threads waiting in native calls (socket reads), which would fill an
 * idle application's ring with waiting, not CPU.
 *
 * <p>Samples reach the sink as JFR flushes, about once a second; {@link Recording#stop()} waits for the next flush,
 * so the samples up to the stop are delivered (measured: the last one within ~20 ms of the stop; the wait is up to
 * one flush interval, median 0.3 to 0.8 s, on JDK 17 and 25), where closing the stream at once would drop up to the
 * last second, the most recent part of the look-back.
 *
 * <p>The stream runs on a daemon thread of ours ({@code RecordingStream.start()}), not through {@code startAsync()}:
 * that makes a non-daemon "JFR Event Stream" thread on JDK 17 and 25 alike, and an always-on non-daemon thread
 * keeps a JVM whose {@code main} has returned (a batch application) from ever exiting.
 */
public final class JfrExecutionSampleSource implements LookbackSource {

    static final String EVENT = "jdk.ExecutionSample";
    /** Longest wait in {@link Recording#stop()} for the flush that delivers the last samples. */
    static final Duration FLUSH_WAIT = Duration.ofSeconds(2);
    // The stream reads its chunks within a second; older data on disk is of no use. JFR removes whole chunks only
    // (at rotation, every 12 MB by default), so this bounds the repository to about two chunks.
    private static final Duration DISK_RETENTION = Duration.ofMinutes(1);

    private final int maxStackDepth;
    private final ThreadFactory threadFactory;
    private final DiskSpaceGuard diskSpace;

    /** With the automatic free-space floor under JFR's repository. */
    public JfrExecutionSampleSource(int maxStackDepth, ThreadFactory threadFactory) {
        this(maxStackDepth, threadFactory, DiskSpaceGuard.auto());
    }

    /**
     * @param maxStackDepth frames kept per sample (JFR itself keeps 64 unless {@code stackdepth} says more)
     * @param threadFactory makes the thread each stream runs on (made a daemon here)
     * @param diskSpace the free space kept under JFR's repository: the stream writes there all the time, and JFR
     *        stops the JVM when it cannot; the stream does not start below the floor and ends when it gets there
     */
    public JfrExecutionSampleSource(int maxStackDepth, ThreadFactory threadFactory, DiskSpaceGuard diskSpace) {
        this.maxStackDepth = maxStackDepth;
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.diskSpace = Objects.requireNonNull(diskSpace, "diskSpace");
    }

    @Override
    public String description() {
        return EVENT;
    }

    @Override
    public Recording start(Duration period, TimedStackSink sink) throws LookbackUnavailableException {
        try {
            if (!FlightRecorder.isAvailable()) {
                throw new LookbackUnavailableException(
                        "JFR is not available in this JVM (disabled with -XX:-FlightRecorder or not built in)");
            }
        } catch (LinkageError e) {
            throw new LookbackUnavailableException("the jdk.jfr module is missing from this runtime: " + e, e);
        }
        Optional<String> full = diskSpace.jfrRefusal(null);
        if (full.isPresent()) {
            throw new LookbackUnavailableException(full.get());
        }
        RecordingStream stream;
        try {
            stream = new RecordingStream();
        } catch (RuntimeException e) {
            throw new LookbackUnavailableException("JFR could not open a recording stream: " + e, e);
        }
        try {
            stream.enable(EVENT).withPeriod(period).withStackTrace();
            stream.setReuse(true);
            stream.setOrdered(false);
            stream.setMaxAge(DISK_RETENTION);
            JfrSampleStream recording = new JfrSampleStream(stream, new JfrFrames(maxStackDepth), sink, period,
                    new JfrEffectivePeriod(EVENT), FLUSH_WAIT, () -> diskSpace.jfrRefusal(null));
            stream.onEvent(EVENT, recording::deliver);
            stream.onFlush(recording::flushed);
            Thread thread = threadFactory.newThread(recording::run);
            thread.setDaemon(true);
            thread.start();
            return recording;
        } catch (RuntimeException e) {
            stream.close();
            throw new LookbackUnavailableException("JFR could not start the look-back recording: " + e, e);
        }
    }
}
