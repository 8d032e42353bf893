package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.StackTreeSnapshot;

/**
 * Samples whose stacks the engine cut at the root end: their outer frames (the thread's entry, the request
 * dispatch) are missing, so whatever they called cannot be attributed to its caller. An engine marks such a stack
 * with a {@link StackTree#TRUNCATED} first frame; it sits under the root, or under a group (a thread's, an
 * endpoint's).
 *
 * @param samples weight of the samples cut at the root
 * @param percent their share of all samples, 0..100, rounded to two decimals
 */
public record RootCut(long samples, double percent) {

    /** Counts the cut samples of a tree (one pass over the first two levels). */
    public static RootCut of(StackTreeSnapshot tree) {
        long cut = 0;
        for (int level1 = tree.firstChild(0); level1 >= 0; level1 = tree.nextSibling(level1)) {
            if (StackTree.TRUNCATED.equals(tree.frame(level1))) {
                cut += tree.total(level1);
            } else if (tree.kind(level1).isGroup()) {
                for (int level2 = tree.firstChild(level1); level2 >= 0; level2 = tree.nextSibling(level2)) {
                    if (StackTree.TRUNCATED.equals(tree.frame(level2))) {
                        cut += tree.total(level2);
                    }
                }
            }
        }
        long all = tree.totalSamples();
        return new RootCut(cut, all <= 0 ? 0 : Math.round(cut * 10000.0 / all) / 100.0);
    }
}
