package dev.cpuprofiler.internal.stack;


import java.util.List;

/** Receives sampled stacks from an engine. Implementations must be safe for one writer thread at a time. */
@FunctionalInterface
public interface StackSink {

    /**
     * @param framesRootFirst the stack, outermost frame first (e.g. {@code Thread.run} first, the hot leaf last)
     * @param threadName the sampled thread's name, or {@code null} if unknown
     * @param weight how many nominal samples this one stands for (1 for an ordinary sample)
     */
    void accept(List<Frame> framesRootFirst, String threadName, long weight);

    /**
     * A sample whose thread and time are known, which a sink may join with what the thread did then (the request
     * it served); by default, {@link #accept(List, String, long)}.
     *
     * @param threadId the sampled thread's {@code Thread.getId()}, or -1 if unknown
     * @param epochNanos when it was taken, in nanoseconds since the epoch
     */
    default void accept(List<Frame> framesRootFirst, String threadName, long threadId, long epochNanos, long weight) {
        accept(framesRootFirst, threadName, weight);
    }
}
