package dev.cpuprofiler.lookback;

import dev.cpuprofiler.stack.Frame;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One running look-back stream: runs on a thread of its own, converts each sample and hands it to the sink. */
final class JfrSampleStream implements LookbackSource.Recording {

    private static final Logger log = LoggerFactory.getLogger(JfrSampleStream.class);

    private final RecordingStream stream;
    private final JfrFrames frames;
    private final TimedStackSink sink;
    private final Duration requested;
    private final JfrEffectivePeriod effective;
    private final Duration flushWait;
    private final Supplier<Optional<String>> diskCheck;
    // Guards the sink: once closed, a callback still under way on JFR's thread delivers nothing.
    private final Object delivery = new Object();
    private boolean open = true;
    private final Object flushes = new Object();
    private long flushCount;
    private boolean stopping;
    private long conversionFailures;
    private volatile String failure;

    JfrSampleStream(RecordingStream stream, JfrFrames frames, TimedStackSink sink, Duration requested,
            JfrEffectivePeriod effective, Duration flushWait, Supplier<Optional<String>> diskCheck) {
        this.stream = stream;
        this.frames = frames;
        this.sink = sink;
        this.requested = requested;
        this.effective = effective;
        this.flushWait = flushWait;
        this.diskCheck = diskCheck;
    }

    /** The stream's own thread: starts the recording and dispatches its events until it is closed. */
    void run() {
        try {
            stream.start();
        } catch (RuntimeException | Error e) {
            synchronized (this) {
                if (stopping) {
                    return;  // closed under it
                }
            }
            failure = "the JFR stream ended: " + e;
            log.debug("Look-back stream ended", e);
            close();
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
    void deliver(RecordedEvent event) {
        try {
            List<Frame> stack = frames.rootFirst(event.getStackTrace());
            Instant at = event.getStartTime();
            String thread = threadName(event);
            synchronized (delivery) {
                if (open) {
                    sink.accept(at, stack, thread);
                }
            }
        } catch (RuntimeException e) {
            if (conversionFailures++ == 0) {
                log.debug("Look-back could not take a sample: {}", e.toString());
            }
        }
    }

    void flushed() {
        synchronized (flushes) {
            flushCount++;
            flushes.notifyAll();
        }
    }

    @Override
    public Duration effectivePeriod() {
        try {
            return effective.of(requested);
        } catch (RuntimeException e) {
            return requested;
        }
    }

    @Override
    public void stop() {
        synchronized (this) {
            if (stopping) {
                return;
            }
            stopping = true;
        }
        awaitNextFlush();
        close();
    }

    @Override
    public void cancel() {
        synchronized (this) {
            stopping = true;
        }
        close();
    }

    /** The next flush carries every sample taken before this call (JFR writes all thread buffers at a flush). */
    private void awaitNextFlush() {
        long deadline = System.nanoTime() + flushWait.toNanos();
        synchronized (flushes) {
            long seen = flushCount;
            try {
                for (long left = flushWait.toNanos(); flushCount == seen && left > 0;
                        left = deadline - System.nanoTime()) {
                    TimeUnit.NANOSECONDS.timedWait(flushes, left);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (flushCount == seen) {
                log.debug("Look-back stream did not flush within {}; its last samples may be missing", flushWait);
            }
        }
    }

    private void close() {
        try {
            stream.close();
        } catch (RuntimeException e) {
            log.debug("Closing the look-back stream failed: {}", e.toString());
        }
        synchronized (delivery) {
            open = false;
        }
    }

    private static String threadName(RecordedEvent event) {
        RecordedThread thread = event.getThread("sampledThread");
        if (thread == null) {
            return null;
        }
        return thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
    }
}
