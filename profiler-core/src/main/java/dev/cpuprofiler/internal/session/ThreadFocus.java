package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.internal.stack.StackSink;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.threads.SaturationReading;
import java.time.Duration;
import java.util.List;

/**
 * Passes a SATURATION session's samples on, keeping the pinned thread's own (by its id, which every engine's samples
 * carry) in a tree of their own: that thread's stacks, unmixed with its pool's siblings, which a grouping by folded
 * thread name would merge.
 */
final class ThreadFocus implements StackSink {

    private final StackSink next;
    private final SaturationReading pinned;
    private final Duration window;
    private final StackTree tree;

    ThreadFocus(StackSink next, SaturationReading pinned, Duration window, int maxStackDepth, int maxTreeNodes) {
        this.next = next;
        this.pinned = pinned;
        this.window = window;
        this.tree = new StackTree(maxStackDepth, maxTreeNodes, false);
    }

    @Override
    public void accept(List<Frame> framesRootFirst, String threadName, long weight) {
        next.accept(framesRootFirst, threadName, weight);
    }

    @Override
    public void accept(List<Frame> framesRootFirst, String threadName, long threadId, long epochNanos, long weight) {
        if (threadId == pinned.threadId()) {
            tree.accept(framesRootFirst, threadName, weight);
        }
        next.accept(framesRootFirst, threadName, threadId, epochNanos, weight);
    }

    /** What the trigger saw, with the thread's stacks as recorded. */
    Profile.Saturation saturation() {
        return new Profile.Saturation(pinned.thread(), pinned.percentOfCore(), window, tree.snapshot());
    }
}
