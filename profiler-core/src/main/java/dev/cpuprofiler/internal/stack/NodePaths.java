package dev.cpuprofiler.internal.stack;

import java.util.Arrays;

/**
 * How a {@link StackTree} stores one sample: its path of packed frames, root first, added to the node table with its
 * weight, node by node while nodes can be made, the rest of its weight then in a {@value StackTree#TRUNCATED} marker.
 * The previous path is kept, so that consecutive similar stacks (a thread sampled again in the same code) skip the
 * lookups of the part they share. The single writer's scratch state; not thread-safe.
 */
final class NodePaths {

    private final NodeTable nodes;
    private final int maxTreeNodes;
    /** Nodes for ordinary frames stop here; the slots above are for markers. */
    private final int regularLimit;
    private int[] packed;
    private int[] path;
    private int[] previousPacked;
    private int[] previousPath;
    private int previousLength;

    NodePaths(NodeTable nodes, int maxTreeNodes, int regularLimit, int length) {
        this.nodes = nodes;
        this.maxTreeNodes = maxTreeNodes;
        this.regularLimit = regularLimit;
        packed = new int[length];
        path = new int[length];
        previousPacked = new int[length];
        previousPath = new int[length];
    }

    /**
     * Adds {@code weight} along the first {@code length} entries of the {@link #buffer}; when a node cannot be created
     * (or {@code complete} is false: the path goes on with frames the full tree cannot hold) the weight ends in a
     * {@value StackTree#TRUNCATED} marker. Returns how many path entries landed on their own nodes.
     */
    int add(int length, boolean complete, long weight) {
        int common = 0;
        int limit = Math.min(length, previousLength);
        while (common < limit && previousPacked[common] == packed[common]) {
            common++;
        }
        System.arraycopy(previousPath, 0, path, 0, common);
        int node = common == 0 ? NodeTable.ROOT : path[common - 1];
        int stored = common;
        for (; stored < length; stored++) {
            int child = nodes.findOrCreate(node, packed[stored], regularLimit);
            if (child < 0) {
                break;
            }
            path[stored] = child;
            node = child;
        }
        int applied = stored;
        int remembered = stored;
        if (stored < length || !complete) {
            applied = landInMarker(stored);
            remembered = applied - 1;  // the marker may have replaced a path entry: keep only what is intact
        }
        nodes.add(NodeTable.ROOT, weight);
        for (int i = 0; i < applied; i++) {
            nodes.add(path[i], weight);
        }
        // Remember the path for the next sample (only the part that exists as nodes).
        int[] swapPacked = previousPacked;
        previousPacked = packed;
        packed = swapPacked;
        int[] swapPath = previousPath;
        previousPath = path;
        path = swapPath;
        previousLength = remembered;
        return stored;
    }

    /**
     * Puts a marker at the end of the first {@code stored} path nodes (or an ancestor's when no slot is left) and
     * returns how many path entries, marker included, receive the weight.
     */
    private int landInMarker(int stored) {
        if (stored > 0 && nodes.frame(path[stored - 1]) == FrameTable.TRUNCATED_ID) {
            return stored;  // already in a marker: the weight becomes its self
        }
        for (int depth = stored; depth >= 0; depth--) {
            int parent = depth == 0 ? NodeTable.ROOT : path[depth - 1];
            int limit = parent == NodeTable.ROOT ? maxTreeNodes : maxTreeNodes - 1;
            int marker = nodes.findOrCreate(parent, StackTree.TRUNCATED_PACKED, limit);
            if (marker >= 0) {
                path[depth] = marker;
                return depth + 1;
            }
        }
        throw new IllegalStateException("the root's marker slot was taken");  // cannot happen: one slot is reserved
    }

    /** The array to write the next path's packed frames into, root first: room for at least {@code length}. */
    int[] buffer(int length) {
        if (packed.length < length) {
            int size = Math.max(length, packed.length * 2);
            packed = Arrays.copyOf(packed, size);
            path = Arrays.copyOf(path, size);
            previousPacked = Arrays.copyOf(previousPacked, size);
            previousPath = Arrays.copyOf(previousPath, size);
        }
        return packed;
    }
}
