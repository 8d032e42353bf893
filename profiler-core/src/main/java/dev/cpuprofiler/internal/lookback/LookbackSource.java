package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.stack.Frame;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What samples stacks for the look-back: {@link JfrExecutionSampleSource} in production, fakes in tests. The
 * {@link LookbackRecorder} starts it only while holding the engine lock, so it never samples next to a session.
 */
public interface LookbackSource {

    /** E.g. {@code jdk.ExecutionSample}: for logs and status. */
    String description();

    /**
     * Starts sampling every {@code period}; samples go to {@code sink} until the recording stops.
     *
     * @throws UnavailableException if this source cannot sample here; the message says why
     */
    Recording start(Duration period, Sink sink) throws UnavailableException;

    /** Sampling under way. Safe to call from any thread. */
    interface Recording {

        /**
         * The period samples actually come at: finer than asked for when another recording in the JVM samples the
         * same event faster (JFR applies the finest period to all). Cheap enough to call every second.
         */
        Duration effectivePeriod();

        /**
         * Stops sampling and hands every sample taken before this call to the sink before returning (waits for
         * delivery, boundedly). The sink receives nothing afterwards. Idempotent.
         */
        void stop();

        /**
         * Stops sampling now and returns at once: samples taken before this call still reach the sink (the stage
         * completes once they have, or after a bounded wait), none taken after it. Lets a session's engine start
         * right away instead of after JFR's next flush. Idempotent; stop() or cancel() afterwards are harmless.
         */
        default CompletionStage<Void> handOver() {
            stop();
            return CompletableFuture.completedFuture(null);
        }

        /** Stops at once, possibly leaving the last samples undelivered; for shutdown. Idempotent. */
        void cancel();

        /** Why it stopped sampling on its own, if it did (the recorder then frees the engine lock). */
        default Optional<String> failure() {
            return Optional.empty();
        }
    }

    /** Receives look-back samples with the time each was taken (delivery can lag by a second). One writer at a time. */
    @FunctionalInterface
    interface Sink {

        /**
         * @param sampledAt when the sample was taken
         * @param framesRootFirst the stack, outermost frame first
         * @param threadName the sampled thread's name, or {@code null} if unknown
         * @param period the sampling period this one sample stands for, where the event says so (JFR's CPU-time samples
         *        carry the throttle in force when each was taken), or {@code null}: the recording's
         *        {@link LookbackSource.Recording#effectivePeriod()}
         */
        void accept(Instant sampledAt, List<Frame> framesRootFirst, String threadName, Duration period);

        /** A sample that stands for the recording's effective period. */
        default void accept(Instant sampledAt, List<Frame> framesRootFirst, String threadName) {
            accept(sampledAt, framesRootFirst, threadName, null);
        }
    }

    /** This source cannot sample in this JVM; the message says why. */
    final class UnavailableException extends Exception {

        private static final long serialVersionUID = 1L;

        public UnavailableException(String message) {
            super(message);
        }

        public UnavailableException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
