package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.Frame;

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
}
