package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A small view of a large tree: children below a share of all samples are folded into one
 * {@code [N more below x%]} child per parent, so totals stay exact (parent.total = self + Σ children.total)
 * while the view stays a few hundred nodes. Used where a whole tree would be too much, such as the
 * status endpoint's {@code latestProfile}.
 *
 * <p>One pass over the tree's preorder, skipping each folded subtree at once: linear in the nodes kept and
 * iterative, so paths thousands of frames deep neither overflow the Java stack nor cost time per frame and path.
 * The view keeps the tree's own counts of truncated samples and frames.
 */
public final class StackTreePruner {

    private StackTreePruner() {
    }

    /** @param minPercent children below this share of the root's total (0..100) are folded */
    public static StackTreeSnapshot prune(StackTreeSnapshot tree, double minPercent) {
        if (!(minPercent >= 0 && minPercent <= 100)) {
            throw new IllegalArgumentException("minPercent must be between 0 and 100, was " + minPercent);
        }
        long minTotal = (long) Math.ceil(tree.total(0) * minPercent / 100.0);
        int n = tree.size();

        // Which nodes stay (index in the view) and, per kept parent, what its folded children add up to. A node is
        // only reached when all its ancestors stayed: a folded child's subtree is skipped as a whole.
        int[] index = new int[n];
        int[] keptNodes = new int[n];
        long[] hiddenTotal = new long[n];
        int[] hiddenCount = new int[n];
        int kept = 0;
        int markers = 0;
        for (int node = 0; node < n; ) {
            long total = tree.total(node);
            if (node == 0 || total >= minTotal && total > 0) {
                index[node] = kept;
                keptNodes[kept++] = node;
                node++;
            } else {
                int parent = tree.parent(node);
                if (hiddenTotal[parent] == 0 && total > 0) {
                    markers++;
                }
                hiddenTotal[parent] += total;
                hiddenCount[parent]++;
                node = tree.subtreeEnd(node);
            }
        }

        int size = kept + markers;
        int[] parent = new int[size];
        int[] frame = new int[size];
        byte[] kind = new byte[size];
        long[] total = new long[size];
        // The kept frames' names, each once, then the markers' labels.
        Map<String, Integer> ids = new HashMap<>();
        List<String> names = new ArrayList<>();
        int out = kept;
        for (int i = 0; i < kept; i++) {
            int node = keptNodes[i];
            parent[i] = node == 0 ? -1 : index[tree.parent(node)];
            frame[i] = ids.computeIfAbsent(tree.frame(node), name -> {
                names.add(name);
                return names.size() - 1;
            });
            kind[i] = (byte) tree.kind(node).ordinal();
            total[i] = tree.total(node);
            if (hiddenTotal[node] > 0) {
                String label = "[" + hiddenCount[node] + " more below " + minPercent + "%]";
                parent[out] = i;
                frame[out] = ids.computeIfAbsent(label, name -> {
                    names.add(name);
                    return names.size() - 1;
                });
                kind[out] = (byte) FrameKind.UNKNOWN.ordinal();
                total[out] = hiddenTotal[node];
                out++;
            }
        }
        return StackTreeSnapshot.build(size, parent, frame, kind, total, names.toArray(String[]::new),
                tree.truncatedSamples(), tree.truncatedFrames());
    }
}
