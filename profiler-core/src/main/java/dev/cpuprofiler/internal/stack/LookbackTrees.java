package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.LookbackView;

import dev.cpuprofiler.StackTreeSnapshot;

/** The trees a profile with a look-back part can show. */
public final class LookbackTrees {

    private LookbackTrees() {
    }

    /**
     * The tree a rendering shows: the session's with the look-back part (the default view), without it, or that part
     * only; a profile without a look-back part shows its session's tree for every view but ONLY.
     */
    public static StackTreeSnapshot select(LookbackView view, StackTreeSnapshot session, LookbackSnapshot lookback) {
        return switch (view) {
            case INCLUDE -> combined(session, lookback);
            case EXCLUDE -> session;
            case ONLY -> lookback == null ? StackTreeSnapshot.empty() : lookback.tree();
        };
    }

    /**
     * The session's tree with the look-back's samples added, in a tree large enough to hold both whole (no limit of
     * its own: both parts were bounded when recorded). For renderings of a stored profile.
     */
    public static StackTreeSnapshot combined(StackTreeSnapshot session, LookbackSnapshot lookback) {
        if (lookback == null || lookback.weight() == 0) {
            return session;
        }
        return TreeGroups.merged(session, lookback.tree());
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
