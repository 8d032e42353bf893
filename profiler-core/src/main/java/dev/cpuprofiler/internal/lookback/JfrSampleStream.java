package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.JfrAvailability;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import dev.cpuprofiler.internal.stack.Frame;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One running look-back stream of a {@link JfrSampleEvent}: runs on a thread of its own, converts each sample and
 * hands it to the sink.
 *
 * <p>JFR delivers samples at its flushes, about once a second, so the last second's samples are still in JFR's buffers
 * when a session wants the look-back out of the way. {@link #handOver()} does not wait for them: it notes the instant,
 * disables the event (the JVM stops sampling it for us at once), commits a {@link HandOverMark} and returns; the
 * stream's own thread closes the stream at the end of the flush that carries the mark, which holds every sample taken
 * before the hand-over (JFR writes all thread buffers at a flush). Until then the stream also sees the events of a
 * session's recording of the same event that started right after (a stream reads JFR's shared repository, not only
 * its own recording): samples stamped at or after the hand-over are dropped, so none of the session's reaches the
 * ring.
 *
 * <p>The stream runs on a daemon thread of ours ({@code RecordingStream.start()}), not through {@code startAsync()}:
 * that makes a non-daemon "JFR Event Stream" thread on JDK 17 and 25 alike, and an always-on non-daemon thread
 * keeps a JVM whose {@code main} has returned (a batch application) from ever exiting.
 */
final class JfrSampleStream implements LookbackSource.Recording {

    private static final Logger log = LoggerFactory.getLogger(JfrSampleStream.class);
    // The stream reads its chunks within a second; older data on disk is of no use. JFR removes whole chunks only
    // (at rotation, every 12 MB by default), so this bounds the repository to about two chunks.
    private static final Duration DISK_RETENTION = Duration.ofMinutes(1);

    private final RecordingStream stream;
    private final JfrSampleEvent event;
    private final JfrFrames frames;
    private final LookbackSource.Sink sink;
    private final Duration requested;
    private final JfrEffectivePeriod effective;
    private final Duration flushWait;
    private final Supplier<Optional<String>> diskCheck;
    private final Clock clock;
    private final ThreadFactory threadFactory;
    // Guards the sink: once closed, a callback still under way on JFR's thread delivers nothing.
    private final Object delivery = new Object();
    private boolean open = true;
    private final long id = ThreadLocalRandom.current().nextLong();
    // Guarded by this.
    private CompletableFuture<Void> handedOver;
    private boolean markSeen;
    private boolean closed;
    // Written under this, read on the stream's thread for every sample.
    private volatile Instant handOverAt;
    private final SampledPeriod sampledPeriod = new SampledPeriod();
    private volatile String failure;
    private long conversionFailures;

    JfrSampleStream(RecordingStream stream, JfrSampleEvent event, JfrFrames frames, LookbackSource.Sink sink,
            Duration requested, Duration flushWait, Supplier<Optional<String>> diskCheck, Clock clock,
            ThreadFactory threadFactory) {
        this.stream = stream;
        this.event = event;
        this.frames = frames;
        this.sink = sink;
        this.requested = requested;
        this.effective = new JfrEffectivePeriod(event.name);
        this.flushWait = flushWait;
        this.diskCheck = diskCheck;
        this.clock = clock;
        this.threadFactory = threadFactory;
    }

    /**
     * Opens a stream of {@code event} every {@code period} and starts it on a daemon thread from {@code threadFactory}.
     * The system clock decides what was sampled before a hand-over: it is the clock JFR stamps its events with.
     *
     * @param jfrKeeper told before the stream starts (see {@link JfrPeriodicTaskKeeper})
     * @param flushWait the longest wait for the flush that delivers the samples before a hand-over or stop
     * @throws LookbackSource.UnavailableException without JFR, with the disk under JFR's repository at the floor, or
     *         when JFR refuses the stream
     */
    static JfrSampleStream start(JfrSampleEvent event, Duration period, LookbackSource.Sink sink, int maxStackDepth,
            ThreadFactory threadFactory, DiskSpaceGuard diskSpace, JfrPeriodicTaskKeeper jfrKeeper, Duration flushWait)
            throws LookbackSource.UnavailableException {
        String noJfr = JfrAvailability.whyUnavailable(); // the JVM shutting down included
        if (noJfr != null) {
            throw new LookbackSource.UnavailableException(noJfr);
        }
        Optional<String> full = diskSpace.jfrRefusal(null);
        if (full.isPresent()) {
            throw new LookbackSource.UnavailableException(full.get());
        }
        jfrKeeper.beforeRecording();
        RecordingStream stream;
        try {
            stream = new RecordingStream();
        } catch (RuntimeException e) {
            throw new LookbackSource.UnavailableException("JFR could not open a recording stream: " + e, e);
        }
        try {
            event.enable(stream, period);
            stream.setReuse(true);
            stream.setOrdered(false);
            stream.setMaxAge(DISK_RETENTION);
            JfrSampleStream recording = new JfrSampleStream(stream, event, new JfrFrames(maxStackDepth), sink, period,
                    flushWait, () -> diskSpace.jfrRefusal(null), Clock.systemUTC(), threadFactory);
            stream.enable(HandOverMark.class);
            // Initialised now, not at the first hand-over: its first use costs ~0.1 s when cold (measured on JDK 17
            // and 25), where handOver() must return at once.
            new HandOverMark();
            stream.onEvent(event.name, recording::deliver);
            stream.onEvent(HandOverMark.NAME, recording::marked);
            stream.onFlush(recording::flushed);
            Thread thread = threadFactory.newThread(recording::run);
            thread.setDaemon(true);
            thread.start();
            return recording;
        } catch (RuntimeException e) {
            stream.close();
            throw new LookbackSource.UnavailableException("JFR could not start the look-back recording: " + e, e);
        }
    }

    /** The stream's own thread: starts the recording and dispatches its events until it is closed. */
    void run() {
        try {
            if (JfrAvailability.shuttingDown()) { // since start(): JFR would never return from starting the stream
                throw new IllegalStateException("the JVM is shutting down");
            }
            stream.start();
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                if (closed) {
                    return;  // closed under it
                }
            }
            failure = "the JFR stream ended: " + e;
            log.debug("Look-back stream ended", e);
            end();
        }
    }

    /** The stream's end, or the disk under JFR's repository down to the floor (checked on each call). */
    @Override
    public Optional<String> failure() {
        if (failure != null) {
            return Optional.of(failure);
        }
        return diskCheck.get();
    }

    /** On the stream's thread. Never throws: an exception would end the stream. */
    void deliver(RecordedEvent sample) {
        try {
            Instant at = sample.getStartTime();
            Instant cutoff = handOverAt;
            if (cutoff != null && !at.isBefore(cutoff)) {
                return;  // taken after the hand-over: by the session's own recording, read from the shared repository
            }
            if (!event.hasStack(sample)) {
                return;
            }
            Duration period = event.periodOf(sample);
            if (period != null) {
                sampledPeriod.add(period);
            }
            List<Frame> stack = frames.rootFirst(sample.getStackTrace());
            String thread = threadName(event.threadOf(sample));
            synchronized (delivery) {
                if (open) {
                    sink.accept(at, stack, thread, period);
                }
            }
        } catch (RuntimeException e) {
            if (conversionFailures++ == 0) {
                log.debug("Look-back could not take a sample: {}", e.toString());
            }
        }
    }

    /** On the stream's thread: this stream's hand-over mark, written after the hand-over. */
    void marked(RecordedEvent mark) {
        if (mark.getLong("stream") == id) {
            synchronized (this) {
                markSeen = true;
            }
        }
    }

    /**
     * On the stream's thread, when a flush's data arrives and after its events. The first after the mark ends the
     * flush that carries it: the samples taken before the hand-over are all delivered, so the stream ends.
     */
    void flushed() {
        boolean delivered;
        synchronized (this) {
            delivered = markSeen;
        }
        if (delivered) {
            end();
        }
    }

    /**
     * The period the recent samples say is in force ({@link SampledPeriod}: a late signal's sample says a multiple of
     * it); before any sample, or for an event that does not say, the finest period any running recording asks for.
     */
    @Override
    public Duration effectivePeriod() {
        Duration said = sampledPeriod.inForce();
        if (said != null) {
            return said;
        }
        try {
            return effective.of(requested);
        } catch (RuntimeException e) {
            return requested;
        }
    }

    @Override
    public CompletionStage<Void> handOver() {
        CompletableFuture<Void> done;
        synchronized (this) {
            if (handedOver != null) {
                return handedOver;
            }
            handOverAt = clock.instant();
            handedOver = new CompletableFuture<>();
            done = handedOver;
            if (closed) {
                done.complete(null);  // cancelled or ended before: nothing more will come
                return done;
            }
        }
        try {
            // The JVM stops sampling for this stream now, rather than until the close after the next flush; a
            // session's engine that enables the event again is not slowed or sped up by ours meanwhile.
            stream.disable(event.name);
            HandOverMark mark = new HandOverMark();
            mark.stream = id;
            mark.commit();
        } catch (RuntimeException e) {
            log.debug("Look-back could not disable {} at the hand-over: {}", event.name, e.toString());
            end();
            return done;
        }
        // Bounded: if JFR does not flush in time (a starved recorder thread), end without the last samples. A thread
        // of ours waits for it, and leaves as soon as the flush came.
        Thread bound = threadFactory.newThread(() -> endUnlessDeliveredIn(flushWait, done));
        bound.setDaemon(true);
        bound.start();
        return done;
    }

    /**
     * Stops sampling and returns once the samples taken before this call are delivered (boundedly), as
     * {@link #handOver()} and a wait for it.
     */
    @Override
    public void stop() {
        endUnlessDeliveredIn(flushWait, handOver().toCompletableFuture());
    }

    @Override
    public void cancel() {
        end();
    }

    /** Waits for the hand-over's flush, and ends the stream without it after {@code wait}. */
    private void endUnlessDeliveredIn(Duration wait, CompletableFuture<Void> delivered) {
        try {
            delivered.get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            end();
        } catch (ExecutionException | TimeoutException e) {
            log.debug("Look-back stream did not flush within {} of the hand-over; its last samples may be missing",
                    wait);
            end();
        }
    }

    /** Delivers nothing more, completes a pending hand-over and closes the stream. Idempotent, any thread. */
    private void end() {
        CompletableFuture<Void> pending;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            pending = handedOver;
        }
        synchronized (delivery) {
            open = false;
        }
        if (pending != null) {
            pending.complete(null);  // before closing: whoever waits takes the ring now, the close takes a while
        }
        try {
            stream.close();
        } catch (RuntimeException e) {
            log.debug("Closing the look-back stream failed: {}", e.toString());
        }
    }

    private static String threadName(RecordedThread thread) {
        if (thread == null) {
            return null;
        }
        return thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
    }

    /**
     * Committed at a hand-over, so that the look-back's stream knows when JFR has delivered everything sampled before
     * it. A stream's flush callbacks do not say which flush they end: one fires when a flush's data arrives, before its
     * events are dispatched, and one at its end (seen on JDK 17 and 25: they come in pairs a few ms apart, the first
     * still without the last second's samples). The flush that carries this event was written after the hand-over, so
     * it and the flushes before it hold every sample taken before. Off unless a stream enables it, so that no other
     * recording (a user's, a session's) holds it.
     */
    @Name(HandOverMark.NAME)
    @Label("Look-back hand-over")
    @Category("CPU Profiler")
    @Description("The CPU profiler's look-back stopped sampling for a profiling session")
    @Enabled(false)
    @StackTrace(false)
    static final class HandOverMark extends Event {

        static final String NAME = "dev.cpuprofiler.LookbackHandOver";

        /** Which stream handed over: every stream sees every recording's events in JFR's shared repository. */
        @Label("Stream")
        long stream;
    }

    /**
     * The period JFR's CPU-time sampler runs at, told by the periods its samples say. A sample says the period in force
     * times one plus the timer's overruns (JDK 25's jfrCPUTimeThreadSampler.cpp: {@code period * (si_overrun + 1)}): on
     * a busy machine a signal that came late stands for 20 or 30 ms of a 10 ms period. That sample weighs what it says,
     * but the period in force is the finest one the recent samples say: lower at once, higher only once a whole batch
     * of samples says so (the recording that imposed a finer period has ended). Written by one thread, the stream's;
     * read by any.
     */
    static final class SampledPeriod {

        static final int BATCH = 16;

        private volatile Duration inForce;
        private Duration batchFinest;
        private int inBatch;

        /** One sample's period (the stream's thread only). */
        void add(Duration said) {
            if (inForce == null || said.compareTo(inForce) < 0) {
                inForce = said;
            }
            if (batchFinest == null || said.compareTo(batchFinest) < 0) {
                batchFinest = said;
            }
            if (++inBatch == BATCH) {
                inForce = batchFinest;
                batchFinest = null;
                inBatch = 0;
            }
        }

        /** The period in force, or null before the first sample. */
        Duration inForce() {
            return inForce;
        }
    }
}
