package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.StackTreeSnapshot;

import java.util.ArrayList;
import java.util.List;

/** Test helpers: stacks from short strings. */
public final class Stacks {

    private Stacks() {
    }

    /** {@code "a;b;c"} → Java frames a, b, c (root first). */
    public static List<Frame> of(String semicolonSeparated) {
        List<Frame> frames = new ArrayList<>();
        if (semicolonSeparated.isEmpty()) {
            return frames;
        }
        for (String name : semicolonSeparated.split(";")) {
            frames.add(Frame.java(name));
        }
        return frames;
    }

    /** Checks every node: total = self + Σ children, self ≥ 0, children largest first. Returns the node count. */
    public static void assertInvariants(StackTreeSnapshot tree) {
        for (int node = 0; node < tree.size(); node++) {
            long children = 0;
            long previous = Long.MAX_VALUE;
            for (int c = tree.firstChild(node); c >= 0; c = tree.nextSibling(c)) {
                children += tree.total(c);
                if (tree.total(c) > previous) {
                    throw new AssertionError("children of " + tree.frame(node) + " not sorted by total");
                }
                previous = tree.total(c);
                if (tree.parent(c) != node || tree.depth(c) != tree.depth(node) + 1) {
                    throw new AssertionError("bad parent/depth at " + c);
                }
            }
            if (tree.self(node) < 0 || tree.total(node) != tree.self(node) + children) {
                throw new AssertionError("node " + tree.frame(node) + ": total " + tree.total(node) + " != self "
                        + tree.self(node) + " + children " + children);
            }
        }
    }

    /** The sum of the totals of the outermost [truncated] nodes: the weight of the samples that were cut. */
    public static long weightThroughMarkers(StackTreeSnapshot tree) {
        long sum = 0;
        for (int node = 0; node < tree.size(); ) {
            if (tree.frame(node).equals(StackTree.TRUNCATED)) {
                sum += tree.total(node);
                node = tree.subtreeEnd(node);
            } else {
                node++;
            }
        }
        return sum;
    }
}
