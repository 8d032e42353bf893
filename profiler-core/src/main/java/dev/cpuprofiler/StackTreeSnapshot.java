package dev.cpuprofiler;


import java.util.Arrays;
import java.util.List;

/**
 * An immutable merged tree, nodes numbered in preorder (root 0; a node's subtree is {@code [node, subtreeEnd(node))};
 * children follow their parent, largest {@code total} first, ties by frame name, then kind). This canonical order
 * is the one every renderer uses, so the same tree always renders to the same text. About 33 bytes per node.
 */
public final class StackTreeSnapshot {

    private static final FrameKind[] KINDS = FrameKind.values();
    private static final int ROOT = 0;
    private static final StackTreeSnapshot EMPTY = build(1, new int[] {-1}, new int[] {0},
            new byte[] {(byte) FrameKind.UNKNOWN.ordinal()}, new long[] {0}, new String[] {"all"}, 0, 0);

    private final String[] names;
    private final int[] frame;
    private final byte[] kind;
    private final long[] total;
    private final long[] self;
    private final int[] depth;
    private final int[] parent;
    private final int[] end;
    private final int maxDepth;
    private final long truncatedSamples;
    private final long truncatedFrames;

    private StackTreeSnapshot(String[] names, int[] frame, byte[] kind, long[] total, long[] self, int[] depth,
            int[] parent, int[] end, long truncatedSamples, long truncatedFrames) {
        this.names = names;
        this.frame = frame;
        this.kind = kind;
        this.total = total;
        this.self = self;
        this.depth = depth;
        this.parent = parent;
        this.end = end;
        int deepest = 0;
        for (int d : depth) {
            deepest = Math.max(deepest, d);
        }
        this.maxDepth = deepest;
        this.truncatedSamples = truncatedSamples;
        this.truncatedFrames = truncatedFrames;
    }

    /** A tree with only its root and no samples. */
    public static StackTreeSnapshot empty() {
        return EMPTY;
    }

    /**
     * A tree from a node table in any order where node 0 is the root: orders the nodes canonically and lays them out
     * in preorder. The arrays are read, not kept.
     *
     * @param n the number of nodes
     * @param nodeParent each node's parent (-1 for the root)
     * @param nodeFrame each node's frame name, an index into {@code names}
     * @param nodeKind each node's {@link FrameKind} ordinal
     * @param nodeTotal the weight of the samples through each node
     * @param names the frame names (kept, shared: never modify)
     * @param truncatedSamples samples whose stacks the engine cut at the root
     * @param truncatedFrames frames they lost
     */
    public static StackTreeSnapshot build(int n, int[] nodeParent, int[] nodeFrame, byte[] nodeKind, long[] nodeTotal,
            String[] names, long truncatedSamples, long truncatedFrames) {

        // Rank frame names once, so sorting nodes compares ints, not Strings.
        int[] byName = new int[names.length];
        Arrays.setAll(byName, i -> i);
        IndexSort.sort(byName, (a, b) -> names[a].compareTo(names[b]));
        int[] nameRank = new int[names.length];
        for (int i = 0; i < byName.length; i++) {
            // A name interned twice (a native and a Java frame of one name) ranks once, so that kind breaks the tie
            // whatever order the two were interned in.
            boolean same = i > 0 && names[byName[i]].equals(names[byName[i - 1]]);
            nameRank[byName[i]] = same ? nameRank[byName[i - 1]] : i;
        }

        // One global sort; filling each parent's child list in that order leaves every list sorted.
        int[] order = new int[n - 1];
        Arrays.setAll(order, i -> i + 1);
        IndexSort.sort(order, (a, b) -> {
            int c = Long.compare(nodeTotal[b], nodeTotal[a]);
            if (c == 0) {
                c = Integer.compare(nameRank[nodeFrame[a]], nameRank[nodeFrame[b]]);
            }
            return c != 0 ? c : Integer.compare(nodeKind[a], nodeKind[b]);
        });
        int[] childStart = new int[n + 1];
        for (int i = 1; i < n; i++) {
            childStart[nodeParent[i] + 1]++;
        }
        for (int i = 0; i < n; i++) {
            childStart[i + 1] += childStart[i];
        }
        int[] fill = Arrays.copyOf(childStart, n);
        int[] children = new int[Math.max(0, n - 1)];
        for (int node : order) {
            children[fill[nodeParent[node]]++] = node;
        }

        // Iterative preorder (stacks can be thousands deep).
        int[] frame = new int[n];
        byte[] kind = new byte[n];
        long[] total = new long[n];
        long[] self = new long[n];
        int[] depth = new int[n];
        int[] parent = new int[n];
        int[] position = new int[n];
        int[] stack = new int[n];
        int top = 0;
        stack[top++] = ROOT;
        for (int pos = 0; top > 0; pos++) {
            int node = stack[--top];
            position[node] = pos;
            frame[pos] = nodeFrame[node];
            kind[pos] = nodeKind[node];
            total[pos] = nodeTotal[node];
            if (node == ROOT) {
                parent[pos] = -1;
            } else {
                parent[pos] = position[nodeParent[node]];
                depth[pos] = depth[parent[pos]] + 1;
            }
            long childTotal = 0;
            for (int c = childStart[node + 1] - 1; c >= childStart[node]; c--) {
                childTotal += nodeTotal[children[c]];
                stack[top++] = children[c];
            }
            self[pos] = nodeTotal[node] - childTotal;
        }
        int[] end = new int[n];
        int[] size = new int[n];
        Arrays.fill(size, 1);
        for (int pos = n - 1; pos > 0; pos--) {
            size[parent[pos]] += size[pos];
        }
        for (int pos = 0; pos < n; pos++) {
            end[pos] = pos + size[pos];
        }
        return new StackTreeSnapshot(names, frame, kind, total, self, depth, parent, end, truncatedSamples,
                truncatedFrames);
    }

    /** Number of nodes, root included. */
    public int size() {
        return total.length;
    }

    /** The frame name of a node ({@code all} for the root); for a {@link FrameKind#isGroup() group}, its name. */
    public String frame(int node) {
        return names[frame[node]];
    }

    public FrameKind kind(int node) {
        return KINDS[kind[node]];
    }

    /** Weight of the samples through the node. */
    public long total(int node) {
        return total[node];
    }

    /** Weight of the samples ending in the node. */
    public long self(int node) {
        return self[node];
    }

    /** 0 for the root. */
    public int depth(int node) {
        return depth[node];
    }

    /** The parent node, -1 for the root. */
    public int parent(int node) {
        return parent[node];
    }

    /** One past the last node of the subtree: the subtree is {@code [node, subtreeEnd(node))}. */
    public int subtreeEnd(int node) {
        return end[node];
    }

    /** The largest child, or -1 for a leaf. */
    public int firstChild(int node) {
        return node + 1 < end[node] ? node + 1 : -1;
    }

    /** The next smaller sibling, or -1. */
    public int nextSibling(int node) {
        int p = parent[node];
        return p >= 0 && end[node] < end[p] ? end[node] : -1;
    }

    /** The deepest node's depth. */
    public int maxDepth() {
        return maxDepth;
    }

    /** Weight of all samples (the root's total). */
    public long totalSamples() {
        return total[0];
    }

    /** Weight of samples cut by a depth or node limit. */
    public long truncatedSamples() {
        return truncatedSamples;
    }

    /** Frames dropped by a depth or node limit. */
    public long truncatedFrames() {
        return truncatedFrames;
    }
}
