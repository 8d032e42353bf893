package dev.cpuprofiler.stack;

/**
 * Samples whose stacks the engine cut at the root end: their outer frames (the thread's entry, the request
 * dispatch) are missing, so whatever they called cannot be attributed to its caller. An engine marks such a stack
 * with a {@link StackTree#TRUNCATED} first frame; it sits under the root, or under a thread group.
 */
public final class RootCut {

    private RootCut() {
    }

    /** Weight of the samples cut at the root. */
    public static long samples(StackTreeSnapshot tree) {
        long cut = 0;
        for (int level1 = tree.firstChild(0); level1 >= 0; level1 = tree.nextSibling(level1)) {
            if (StackTree.TRUNCATED.equals(tree.frame(level1))) {
                cut += tree.total(level1);
                continue;
            }
            for (int level2 = tree.firstChild(level1); level2 >= 0; level2 = tree.nextSibling(level2)) {
                if (isThreadGroup(tree, level1) && StackTree.TRUNCATED.equals(tree.frame(level2))) {
                    cut += tree.total(level2);
                }
            }
        }
        return cut;
    }

    /** Share of all samples cut at the root, 0..100. */
    public static double percent(StackTreeSnapshot tree) {
        long all = tree.totalSamples();
        return all <= 0 ? 0 : Math.round(samples(tree) * 10000.0 / all) / 100.0;
    }

    private static boolean isThreadGroup(StackTreeSnapshot tree, int node) {
        String name = tree.frame(node);
        return tree.kind(node) == FrameKind.UNKNOWN && name.startsWith("[") && name.endsWith("]");
    }
}
