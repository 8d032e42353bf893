package dev.cpuprofiler.lookback;

import dev.cpuprofiler.stack.StackTree;
import dev.cpuprofiler.stack.StackTreeSnapshot;

/** The trees a profile with a look-back part can show. */
public final class LookbackTrees {

    private LookbackTrees() {
    }

    /**
     * The session's tree with the look-back's samples added (both weighed in the session's sampling period). The
     * session's samples go in first, so if the node limit is reached it is look-back paths that end in
     * {@code [truncated]} (counted, not lost).
     */
    public static StackTreeSnapshot combined(StackTreeSnapshot session, LookbackSnapshot lookback, int maxStackDepth,
            int maxTreeNodes, boolean groupByThread) {
        if (lookback == null || lookback.weight() == 0) {
            return session;
        }
        StackTree tree = new StackTree(maxStackDepth, maxTreeNodes, groupByThread);
        tree.merge(session);
        tree.merge(lookback.tree());
        return tree.snapshot();
    }
}
