package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.fixtures.DeepBurner;
import dev.cpuprofiler.StackTreeSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@link DeepBurner}'s stack back out of a profile's tree. Here rather than in the fixture: the fixtures
 * module cannot see profiler-core's types (profiler-core's tests depend on it).
 */
final class DeepSpinPath {

    private DeepSpinPath() {
    }

    /**
     * The frames, root first, of the tree's deepest path that ends in {@link DeepBurner#SPIN} (with or without a
     * leading {@code [truncated]}), or an empty list.
     */
    static List<String> deepest(StackTreeSnapshot tree) {
        int best = -1;
        for (int node = 0; node < tree.size(); node++) {
            if (tree.frame(node).equals(DeepBurner.SPIN) && (best < 0 || tree.depth(node) > tree.depth(best))) {
                best = node;
            }
        }
        List<String> path = new ArrayList<>();
        for (int node = best; node > 0; node = tree.parent(node)) {
            path.add(0, tree.frame(node));
        }
        return path;
    }

    /** How many times {@code frame} stands in {@code path}. */
    static long count(List<String> path, String frame) {
        return path.stream().filter(frame::equals).count();
    }
}
