package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;
import java.util.List;
import java.util.RandomAccess;

/**
 * Merges sampled stacks into a bounded tree. Each node counts the weight of the samples that pass through it
 * ({@code total}); what ends in it ({@code self}) is total minus the children's totals, so
 * {@code parent.total = parent.self + Σ children.total} holds for every node, whatever was cut.
 *
 * <p>Bounds, both counted rather than lost:
 * <ul>
 * <li>Depth: a stack with more than {@code maxStackDepth} frames keeps its {@code maxStackDepth - 2} outermost
 * frames, then a {@value #TRUNCATED} node, then its leaf. The root side keeps the sample merged with its siblings
 * (the tree is built from the root: cutting the root side instead would start a new, meaningless subtree under
 * {@code all} for each cut stack), and the leaf keeps the self time on the method that burned the CPU, which is
 * what a CPU profile is read for.</li>
 * <li>Nodes: once {@code maxTreeNodes} is near, a sample that needs a new node puts its weight into a
 * {@value #TRUNCATED} child of the deepest node it reached (a few slots are kept for these markers; when none is
 * left, the nearest ancestor that has one, the root's always being possible). Totals stay exact.</li>
 * </ul>
 * {@link #truncatedSamples()} is the weight of samples cut either way (or that already went through a
 * {@value #TRUNCATED} frame, as in merged or parsed trees), {@link #truncatedFrames()} the frames dropped.
 *
 * <p>Threading: one writer ({@link #accept}, {@link #merge}) at a time; any thread may call {@link #snapshot()},
 * which copies the arrays under the same lock and builds an immutable {@link StackTreeSnapshot} outside it, so
 * rendering never races with merging and holds the writer up only for the copy.
 */
public final class StackTree implements StackSink {

    /** The frame name of the nodes that stand for cut frames or samples. */
    public static final String TRUNCATED = "[truncated]";
    /** The frame name under which samples with an empty stack are counted (so the root's self stays 0). */
    public static final String NO_STACK = "[no stack]";

    static final int TRUNCATED_PACKED = FrameTable.pack(FrameTable.TRUNCATED_ID, FrameKind.UNKNOWN);
    private static final int NO_STACK_PACKED = FrameTable.pack(FrameTable.NO_STACK_ID, FrameKind.UNKNOWN);

    private final int maxStackDepth;
    private final int maxTreeNodes;
    private final boolean groupByThread;
    /** Nodes for ordinary frames stop here; the slots above are for {@value #TRUNCATED} markers. */
    private final int regularLimit;

    private final FrameTable frames;
    private final NodeTable nodes;
    private final NodePaths paths;
    private long truncatedSamples;
    private long truncatedFrames;
    private long cutByLimits;

    /**
     * @param maxStackDepth most frames of one stack kept (at least 3: root side, marker, leaf)
     * @param maxTreeNodes most nodes, root and markers included (at least 8)
     * @param groupByThread whether the first level is each sample's thread group ({@link ThreadNames#group})
     */
    public StackTree(int maxStackDepth, int maxTreeNodes, boolean groupByThread) {
        if (maxStackDepth < 3) {
            throw new IllegalArgumentException("maxStackDepth must be at least 3, was " + maxStackDepth);
        }
        if (maxTreeNodes < 8) {
            throw new IllegalArgumentException("maxTreeNodes must be at least 8, was " + maxTreeNodes);
        }
        this.maxStackDepth = maxStackDepth;
        this.maxTreeNodes = maxTreeNodes;
        this.groupByThread = groupByThread;
        this.regularLimit = maxTreeNodes - Math.max(2, maxTreeNodes / 32);
        this.frames = new FrameTable(maxTreeNodes);
        this.nodes = new NodeTable(maxTreeNodes);
        this.paths = new NodePaths(nodes, maxTreeNodes, regularLimit, Math.min(maxStackDepth, 64) + 2);
    }

    @Override
    public synchronized void accept(List<Frame> framesRootFirst, String threadName, long weight) {
        if (weight < 0) {
            throw new IllegalArgumentException("weight must not be negative, was " + weight);
        }
        if (weight == 0) {
            return;
        }
        List<Frame> stack = framesRootFirst instanceof RandomAccess ? framesRootFirst : List.copyOf(framesRootFirst);
        int n = stack.size();
        int prefix = groupByThread ? 1 : 0;
        boolean depthCut = n > maxStackDepth;
        int kept = depthCut ? maxStackDepth : Math.max(n, 1);
        int[] packed = paths.buffer(prefix + kept);
        boolean mayAdd = nodes.size() < regularLimit;
        boolean throughMarker = false;
        int length = 0;
        boolean complete = true;
        if (groupByThread) {
            int p = frames.resolveThread(threadName, mayAdd);
            complete = p != FrameTable.MISSING;
            if (complete) {
                packed[length++] = p;
            }
        }
        if (complete && n == 0) {
            packed[length++] = NO_STACK_PACKED;
        }
        int head = depthCut ? maxStackDepth - 2 : n;
        for (int i = 0; complete && i < head; i++) {
            Frame f = stack.get(i);
            int p = frames.resolve(f.name(), f.kind(), mayAdd);
            if (p == FrameTable.MISSING) {
                complete = false;
            } else {
                throughMarker |= FrameTable.id(p) == FrameTable.TRUNCATED_ID;
                packed[length++] = p;
            }
        }
        int markerAt = -1;
        if (complete && depthCut) {
            markerAt = length;
            packed[length++] = TRUNCATED_PACKED;
            Frame leaf = stack.get(n - 1);
            int p = frames.resolve(leaf.name(), leaf.kind(), mayAdd);
            if (p == FrameTable.MISSING) {
                complete = false;
            } else {
                packed[length++] = p;
            }
        }
        int stored = paths.add(length, complete, weight);
        int storedFrames = stored - Math.min(stored, prefix) - (markerAt >= 0 && markerAt < stored ? 1 : 0);
        if (n == 0) {
            storedFrames = 0;
        }
        boolean cut = depthCut || stored < length || !complete;
        if (cut) {
            cutByLimits += weight;
        }
        if (cut || throughMarker) {
            truncatedSamples += weight;
            truncatedFrames += Math.max(0, n - storedFrames);
        }
    }

    /**
     * Adds every sample of another tree to this one (paths taken as they are, thread level included), within this
     * tree's limits. Safe when {@code other == this}.
     */
    public void merge(StackTree other) {
        merge(other.snapshot());
    }

    /**
     * Adds every sample of a snapshot to this tree, within this tree's limits: the same result as accepting, for each
     * node with self weight, its path with that weight. When no path is deeper than this tree keeps (the usual case:
     * look-back buckets, a session and its look-back), it is done node by node, in time linear in the snapshot's size
     * however deep its paths; otherwise path by path, so that deep paths are cut by the same rule as in
     * {@link #accept}.
     */
    public synchronized void merge(StackTreeSnapshot other) {
        int prefix = groupByThread ? 1 : 0;
        if (other.maxDepth() - prefix <= maxStackDepth) {
            mergeByNode(other, prefix);
        } else {
            mergeByPath(other, prefix);
        }
    }

    /**
     * Maps each node of the snapshot, in preorder, to a node of this tree and adds its total there. A node that
     * cannot have a node of its own (the node limit, or a new frame the full frame table cannot take) sends its whole
     * subtree's weight into a {@value #TRUNCATED} marker, exactly where each of its samples would have landed, and
     * its subtree is skipped.
     */
    private void mergeByNode(StackTreeSnapshot other, int prefix) {
        int n = other.size();
        int[] target = new int[n];
        boolean[] throughMarker = new boolean[n];
        target[0] = NodeTable.ROOT;
        nodes.add(NodeTable.ROOT, other.total(0) - other.self(0));
        for (int node = 1; node < n; ) {
            long total = other.total(node);
            int end = other.subtreeEnd(node);
            if (total == 0) {
                node = end;  // no sample passes through it: nothing to add, as path by path
                continue;
            }
            int up = other.parent(node);
            int packedFrame = frames.resolve(other.frame(node), other.kind(node), nodes.size() < regularLimit);
            int child = packedFrame == FrameTable.MISSING ? -1
                    : nodes.findOrCreate(target[up], packedFrame, regularLimit);
            if (child >= 0) {
                target[node] = child;
                nodes.add(child, total);
                throughMarker[node] = throughMarker[up] || FrameTable.id(packedFrame) == FrameTable.TRUNCATED_ID;
                if (throughMarker[node]) {
                    truncatedSamples += other.self(node);
                }
                node++;
                continue;
            }
            landInMarker(other, target, up, total);
            truncatedSamples += total;
            cutByLimits += total;
            // Each sample kept the path entries above this node: its ancestors below the root.
            int stored = other.depth(node) - 1;
            int storedFrames = stored - Math.min(stored, prefix);
            for (int u = node; u < end; u++) {
                if (other.self(u) > 0) {
                    truncatedFrames += Math.max(0, other.depth(u) - prefix - storedFrames);
                }
            }
            node = end;
        }
        truncatedFrames += other.truncatedFrames();
    }

    /**
     * {@link #landInMarker(int)} for a whole subtree whose ancestors are mapped (and already carry its weight): the
     * weight ends in the marker under the deepest ancestor that has or can take one, and leaves the ancestors below
     * that one, as it never passes through them.
     */
    private void landInMarker(StackTreeSnapshot other, int[] target, int parent, long weight) {
        if (parent != 0 && nodes.frame(target[parent]) == FrameTable.TRUNCATED_ID) {
            return;  // already in a marker: the weight is its self
        }
        for (int a = parent; ; a = other.parent(a)) {
            int at = target[a];
            int limit = at == NodeTable.ROOT ? maxTreeNodes : maxTreeNodes - 1;
            int marker = nodes.findOrCreate(at, TRUNCATED_PACKED, limit);
            if (marker >= 0) {
                nodes.add(marker, weight);
                return;
            }
            if (at == NodeTable.ROOT) {
                throw new IllegalStateException("the root's marker slot was taken");  // cannot happen: reserved
            }
            nodes.add(at, -weight);
        }
    }

    /** Merges each node with self weight as one path (with its weight), within this tree's limits. */
    synchronized void mergeByPath(StackTreeSnapshot other, int prefix) {
        int[] full = new int[Math.max(1, other.maxDepth())];
        for (int node = 1; node < other.size(); node++) {
            // Preorder: full[0 .. depth-1) already holds this node's ancestors.
            int depth = other.depth(node);
            full[depth - 1] = frames.resolve(other.frame(node), other.kind(node), nodes.size() < regularLimit);
            long self = other.self(node);
            if (self > 0) {
                mergePath(full, depth, prefix, self);
            }
        }
        truncatedFrames += other.truncatedFrames();
    }

    private void mergePath(int[] full, int depth, int prefix, long weight) {
        boolean depthCut = depth - prefix > maxStackDepth;
        int head = depthCut ? prefix + maxStackDepth - 2 : depth;
        int[] packed = paths.buffer(head + 2);
        int length = 0;
        boolean complete = true;
        boolean throughMarker = false;
        for (int d = 0; d < head; d++) {
            if (full[d] == FrameTable.MISSING) {
                complete = false;
                break;
            }
            throughMarker |= FrameTable.id(full[d]) == FrameTable.TRUNCATED_ID;
            packed[length++] = full[d];
        }
        int markerAt = -1;
        if (complete && depthCut) {
            markerAt = length;
            packed[length++] = TRUNCATED_PACKED;
            complete = full[depth - 1] != FrameTable.MISSING;
            if (complete) {
                packed[length++] = full[depth - 1];
            }
        }
        int stored = paths.add(length, complete, weight);
        int storedFrames = stored - Math.min(stored, prefix) - (markerAt >= 0 && markerAt < stored ? 1 : 0);
        if (depthCut || !complete || stored < length) {
            cutByLimits += weight;
        }
        if (depthCut || !complete || stored < length || throughMarker) {
            truncatedSamples += weight;
            truncatedFrames += Math.max(0, depth - prefix - storedFrames);
        }
    }

    /** An immutable copy of the tree, children sorted by total (largest first). */
    public StackTreeSnapshot snapshot() {
        NodeTable.Copy copy;
        String[] names;
        long samples;
        long frameCount;
        synchronized (this) {
            copy = nodes.copy();
            names = frames.namesCopy();
            samples = truncatedSamples;
            frameCount = truncatedFrames;
        }
        return StackTreeSnapshot.build(copy.size(), copy.parent(), copy.frame(), copy.kind(), copy.total(), names,
                samples, frameCount);
    }

    /** The weight of all samples merged so far (the root's total). */
    public synchronized long totalSamples() {
        return nodes.total(NodeTable.ROOT);
    }

    /** The weight of samples cut by the depth or node limit (or that went through a {@value #TRUNCATED} frame). */
    public synchronized long truncatedSamples() {
        return truncatedSamples;
    }

    /**
     * The weight of samples this tree cut itself, by its depth or node limit: unlike {@link #truncatedSamples()}, not
     * those that arrived already cut (an engine's {@value #TRUNCATED} root, a merged tree's markers).
     */
    public synchronized long samplesCutByLimits() {
        return cutByLimits;
    }

    /** The frames dropped by the depth or node limit. */
    public synchronized long truncatedFrames() {
        return truncatedFrames;
    }

    /** Nodes in the tree, root and markers included. */
    public synchronized int nodeCount() {
        return nodes.size();
    }

    /** Approximate bytes of the node arrays and child index (not counting the frame-name table). */
    public synchronized long nodeFootprintBytes() {
        return nodes.footprintBytes();
    }

    /** Approximate bytes of the frame-name table's arrays and maps (not the name Strings themselves). */
    public synchronized long frameTableFootprintBytes() {
        return frames.footprintBytes();
    }

    public int maxStackDepth() {
        return maxStackDepth;
    }

    public int maxTreeNodes() {
        return maxTreeNodes;
    }

    public boolean groupByThread() {
        return groupByThread;
    }

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
}
