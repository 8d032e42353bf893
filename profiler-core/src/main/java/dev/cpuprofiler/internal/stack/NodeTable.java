package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;

import java.util.Arrays;

/**
 * The tree's nodes as parallel primitive arrays (no object per node), and one open-addressing index
 * (parent, frame id) → child shared by all nodes instead of a map per node. About 17 bytes per node in the arrays
 * plus 8 to 16 in the index. A node's {@code self} is not stored: it is {@code total} minus its children's totals,
 * computed when a snapshot is taken, so the parent invariant holds by construction.
 */
final class NodeTable {

    static final int ROOT = 0;

    private final int capacity;
    private int[] parent;
    private int[] frame;
    private byte[] kind;
    private long[] total;
    private int size;
    private int[] index;

    NodeTable(int capacity) {
        this.capacity = capacity;
        int initial = Math.min(capacity, 1024);
        parent = new int[initial];
        frame = new int[initial];
        kind = new byte[initial];
        total = new long[initial];
        index = new int[Math.max(16, Integer.highestOneBit(initial - 1) << 2)];
        parent[ROOT] = -1;
        frame[ROOT] = FrameTable.ROOT_ID;
        kind[ROOT] = (byte) FrameKind.UNKNOWN.ordinal();
        size = 1;
    }

    int size() {
        return size;
    }

    int capacity() {
        return capacity;
    }

    int frame(int node) {
        return frame[node];
    }

    long total(int node) {
        return total[node];
    }

    void add(int node, long weight) {
        total[node] += weight;
    }

    /** The child of {@code parentNode} for frame id {@code frameId}, or -1. */
    int find(int parentNode, int frameId) {
        int mask = index.length - 1;
        for (int h = hash(parentNode, frameId) & mask, slot; (slot = index[h]) != 0; h = (h + 1) & mask) {
            int n = slot - 1;
            if (frame[n] == frameId && parent[n] == parentNode) {
                return n;
            }
        }
        return -1;
    }

    /**
     * The child for a packed frame, created when missing and fewer than {@code limit} nodes exist; -1 otherwise.
     * A Java frame seen in a node that so far held only inlined samples marks the node Java.
     */
    int findOrCreate(int parentNode, int packed, int limit) {
        int frameId = FrameTable.id(packed);
        byte k = FrameTable.kind(packed);
        int mask = index.length - 1;
        int h = hash(parentNode, frameId) & mask;
        for (int slot; (slot = index[h]) != 0; h = (h + 1) & mask) {
            int n = slot - 1;
            if (frame[n] == frameId && parent[n] == parentNode) {
                if (k != kind[n] && k == FrameKind.JAVA.ordinal()) {
                    kind[n] = k;
                }
                return n;
            }
        }
        if (size >= limit) {
            return -1;
        }
        int n = size++;
        if (n == parent.length) {
            grow();
        }
        parent[n] = parentNode;
        frame[n] = frameId;
        kind[n] = k;
        if (size * 2 > index.length) {
            rehash();
        } else {
            index[h] = n + 1;
        }
        return n;
    }

    /** Copies the arrays (first {@code size} entries) for a snapshot. */
    Copy copy() {
        return new Copy(size, Arrays.copyOf(parent, size), Arrays.copyOf(frame, size), Arrays.copyOf(kind, size),
                Arrays.copyOf(total, size));
    }

    /** Bytes held by the arrays and the index, from their lengths. */
    long footprintBytes() {
        return 5 * 16L + parent.length * (4L + 4 + 1 + 8) + index.length * 4L;
    }

    private void grow() {
        int length = (int) Math.min(capacity, parent.length * 2L);
        parent = Arrays.copyOf(parent, length);
        frame = Arrays.copyOf(frame, length);
        kind = Arrays.copyOf(kind, length);
        total = Arrays.copyOf(total, length);
    }

    private void rehash() {
        index = new int[index.length * 2];
        int mask = index.length - 1;
        for (int n = 1; n < size; n++) {
            int h = hash(parent[n], frame[n]) & mask;
            while (index[h] != 0) {
                h = (h + 1) & mask;
            }
            index[h] = n + 1;
        }
    }

    private static int hash(int parentNode, int frameId) {
        return FrameTable.mix(parentNode * 0x2545F491 + frameId);
    }

    /** A point-in-time copy of the node arrays. */
    record Copy(int size, int[] parent, int[] frame, byte[] kind, long[] total) {
    }
}
