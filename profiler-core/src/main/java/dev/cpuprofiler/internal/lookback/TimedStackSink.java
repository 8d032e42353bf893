package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.stack.Frame;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Receives look-back samples with the time each was taken (delivery can lag by a second). One writer at a time. */
@FunctionalInterface
interface TimedStackSink {

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
