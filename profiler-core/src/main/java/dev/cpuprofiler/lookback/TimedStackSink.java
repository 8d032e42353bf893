package dev.cpuprofiler.lookback;

import dev.cpuprofiler.stack.Frame;
import java.time.Instant;
import java.util.List;

/** Receives look-back samples with the time each was taken (delivery can lag by a second). One writer at a time. */
@FunctionalInterface
public interface TimedStackSink {

    /**
     * @param sampledAt when the sample was taken
     * @param framesRootFirst the stack, outermost frame first
     * @param threadName the sampled thread's name, or {@code null} if unknown
     */
    void accept(Instant sampledAt, List<Frame> framesRootFirst, String threadName);
}
