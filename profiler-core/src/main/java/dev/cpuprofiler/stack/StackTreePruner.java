package dev.cpuprofiler.stack;

import java.util.ArrayList;
import java.util.List;

/**
 * A small view of a large tree: children below a share of all samples are folded into one
 * {@code [N more below x%]} child per parent, so totals stay exact (parent.total = self + Σ children.total)
 * while the view stays a few hundred nodes. Used where a whole tree would be too much, such as the
 * status endpoint's {@code latestProfile}.
 */
public final class StackTreePruner {

    private StackTreePruner() {
    }

    /** @param minPercent children below this share of the root's total (0..100) are folded */
    public static StackTreeSnapshot prune(StackTreeSnapshot tree, double minPercent) {
        if (!(minPercent >= 0 && minPercent <= 100)) {
            throw new IllegalArgumentException("minPercent must be between 0 and 100, was " + minPercent);
        }
        long root = tree.total(0);
        long minTotal = (long) Math.ceil(root * minPercent / 100.0);
        StackTree pruned = new StackTree(tree.maxDepth() + 2, Math.max(100, tree.size() + 2), false);
        List<Frame> path = new ArrayList<>();
        walk(tree, 0, minTotal, minPercent, path, pruned);
        return pruned.snapshot();
    }

    private static void walk(StackTreeSnapshot tree, int node, long minTotal, double minPercent, List<Frame> path,
            StackTree out) {
        if (node != 0) {
            path.add(new Frame(tree.frame(node), tree.kind(node)));
        }
        if (tree.self(node) > 0) {
            out.accept(List.copyOf(path), null, tree.self(node));
        }
        long hiddenTotal = 0;
        int hiddenCount = 0;
        for (int child = tree.firstChild(node); child >= 0; child = tree.nextSibling(child)) {
            if (tree.total(child) >= minTotal && tree.total(child) > 0) {
                walk(tree, child, minTotal, minPercent, path, out);
            } else {
                hiddenTotal += tree.total(child);
                hiddenCount++;
            }
        }
        if (hiddenTotal > 0) {
            List<Frame> hidden = new ArrayList<>(path);
            hidden.add(new Frame("[" + hiddenCount + " more below " + minPercent + "%]", FrameKind.UNKNOWN));
            out.accept(hidden, null, hiddenTotal);
        }
        if (node != 0) {
            path.remove(path.size() - 1);
        }
    }
}
