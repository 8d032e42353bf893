package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * A tree's groups ({@link FrameKind#isGroup() group nodes}: a thread's, an endpoint's at the first level; a trace's
 * and a span's below an endpoint): how it is grouped, one group's samples, the samples without their groups or under
 * one more. For renderings of a stored profile; each result is a tree of its own, large enough to hold every path
 * whole.
 */
public final class TreeGroups {

    private TreeGroups() {
    }

    /** The kind of the tree's first-level groups ({@link FrameKind#THREAD}, {@link FrameKind#ENDPOINT}), or null. */
    public static FrameKind groupedBy(StackTreeSnapshot tree) {
        for (int node = tree.firstChild(0); node > 0; node = tree.nextSibling(node)) {
            if (tree.kind(node).isGroup()) {
                return tree.kind(node);
            }
        }
        return null;
    }

    /** Whether a first-level node is that group. */
    public static boolean hasGroup(StackTreeSnapshot tree, Frame group) {
        for (int node = tree.firstChild(0); node > 0; node = tree.nextSibling(node)) {
            if (isGroup(tree, node, group)) {
                return true;
            }
        }
        return false;
    }

    /** The samples under that first-level group, the group kept; empty when there is none. */
    public static StackTreeSnapshot only(StackTreeSnapshot grouped, Frame group) {
        return copy(grouped, null, group, false);
    }

    /** The samples with every group node left out, paths that then coincide merged. */
    public static StackTreeSnapshot withoutGroups(StackTreeSnapshot grouped) {
        return groupedBy(grouped) == null ? grouped : copy(grouped, null, null, true);
    }

    /** The samples, each path under one more first frame (a thread's group, the look-back's). */
    public static StackTreeSnapshot under(Frame group, StackTreeSnapshot tree) {
        return copy(tree, group, null, false);
    }

    /**
     * Both trees' samples in one, paths as they are (a group counts as one more frame): a depth limit of the deepest
     * node and a node limit of both sizes cut nothing.
     */
    public static StackTreeSnapshot merged(StackTreeSnapshot a, StackTreeSnapshot b) {
        int depth = Math.max(3, Math.max(a.maxDepth(), b.maxDepth()) + 1);
        int both = a.size() + b.size();  // + 1/16: StackTree keeps 1/32 of its nodes for [truncated] markers
        StackTree tree = new StackTree(depth, both + both / 16 + 16, false);
        tree.merge(a);
        tree.merge(b);
        return tree.snapshot();
    }

    private static boolean isGroup(StackTreeSnapshot tree, int node, Frame group) {
        return tree.kind(node) == group.kind() && tree.frame(node).equals(group.name());
    }

    /**
     * Each node's self weight re-added along its path: under {@code top} when not null; only below the first-level
     * group {@code only} when not null; without group nodes when {@code dropGroups}.
     */
    private static StackTreeSnapshot copy(StackTreeSnapshot source, Frame top, Frame only, boolean dropGroups) {
        int n = source.size();
        StackTree tree = new StackTree(Math.max(3, source.maxDepth() + 2), n + n / 16 + 16, false);
        List<Frame> path = new ArrayList<>();
        Frame[] frames = new Frame[Math.max(1, source.maxDepth() + 1)];
        boolean inGroup = false;
        for (int node = 1; node < n; node++) {
            int depth = source.depth(node);
            if (depth == 1) {
                inGroup = only == null || isGroup(source, node, only);
            }
            boolean dropped = dropGroups && source.kind(node).isGroup();
            frames[depth] = dropped ? null : new Frame(source.frame(node), source.kind(node));
            long self = source.self(node);
            if (self <= 0 || !inGroup) {
                continue;
            }
            path.clear();
            if (top != null) {
                path.add(top);
            }
            for (int d = 1; d <= depth; d++) {
                if (frames[d] != null) {
                    path.add(frames[d]);
                }
            }
            if (path.isEmpty()) {
                path.add(new Frame(StackTree.NO_STACK, FrameKind.UNKNOWN));
            }
            tree.accept(path, null, self);
        }
        return tree.snapshot();
    }
}
