package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.Frame;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A tree's first level as groups: whether it is grouped (each first-level node a bracketed group, as
 * {@code [http-nio-8080-exec-*]} or {@code [GET /owners/{id}]}), the same samples without that level, or under one
 * more group frame. For renderings of a stored profile; each result is a tree of its own, large enough to hold every
 * path whole.
 */
public final class TreeGroups {

    private TreeGroups() {
    }

    /** Whether every first-level node is a group (a thread's, an endpoint's); false for an empty tree. */
    public static boolean isGrouped(StackTreeSnapshot tree) {
        int first = tree.size() > 1 ? tree.firstChild(0) : -1;
        for (int node = first; node > 0; node = tree.nextSibling(node)) {
            if (!ThreadNames.isGroupNode(tree, node)) {
                return false;
            }
        }
        return first > 0;
    }

    /** Whether a first-level node has that name. */
    public static boolean hasGroup(StackTreeSnapshot tree, String groupFrame) {
        for (int node = tree.size() > 1 ? tree.firstChild(0) : -1; node > 0; node = tree.nextSibling(node)) {
            if (tree.frame(node).equals(groupFrame)) {
                return true;
            }
        }
        return false;
    }

    /** The samples under the first-level node of that name, that level kept; empty when there is none. */
    public static StackTreeSnapshot only(StackTreeSnapshot grouped, String groupFrame) {
        return copy(grouped, 0, null, null, groupFrame);
    }

    /** The samples with the first level left out, paths that then coincide merged. */
    public static StackTreeSnapshot withoutGroups(StackTreeSnapshot grouped) {
        return copy(grouped, 1, null);
    }

    /** The samples, each path under one more first frame (e.g. {@code [look-back]}). */
    public static StackTreeSnapshot under(String groupFrame, StackTreeSnapshot tree) {
        return copy(tree, 0, new Frame(groupFrame, FrameKind.UNKNOWN));
    }

    /**
     * Both trees' samples in one, paths as they are (a group level counts as one more frame): a depth limit of the
     * deepest node and a node limit of both sizes cut nothing.
     */
    public static StackTreeSnapshot merged(StackTreeSnapshot a, StackTreeSnapshot b) {
        int depth = Math.max(3, Math.max(a.maxDepth(), b.maxDepth()) + 1);
        int both = a.size() + b.size();  // + 1/16: StackTree keeps 1/32 of its nodes for [truncated] markers
        StackTree tree = new StackTree(depth, both + both / 16 + 16, false);
        tree.merge(a);
        tree.merge(b);
        return tree.snapshot();
    }

    /**
     * The frame that puts a traced request's samples under its trace and span, one level below its endpoint's group:
     * the label pprof and OTLP carry as {@code span_id}, never a frame they draw.
     */
    public static String spanFrame(String traceId, String spanId) {
        return SPAN + traceId + " " + spanId + "]";
    }

    /** The trace and span ids a node stands for, or null when it is not a {@link #spanFrame} under a group. */
    public static String[] spanIds(StackTreeSnapshot tree, int node) {
        String name = tree.frame(node);
        if (tree.depth(node) != 2 || tree.kind(node) != FrameKind.UNKNOWN || !name.startsWith(SPAN)
                || !name.endsWith("]")) {
            return null;
        }
        String[] ids = name.substring(SPAN.length(), name.length() - 1).split(" ");
        return ids.length == 2 ? ids : null;
    }

    /**
     * The samples with each second-level frame renamed, or that level left out where the new name is null, paths
     * that then coincide merged: e.g. a request's placeholder made its trace's {@link #spanFrame}.
     */
    public static StackTreeSnapshot renamedSecondLevel(StackTreeSnapshot tree, Function<String, String> rename) {
        return copy(tree, 0, null, rename);
    }

    private static final String SPAN = "[trace ";

    /** Each node's self weight re-added along its path, the first {@code drop} levels left out, under {@code top}. */
    private static StackTreeSnapshot copy(StackTreeSnapshot source, int drop, Frame top) {
        return copy(source, drop, top, null, null);
    }

    private static StackTreeSnapshot copy(StackTreeSnapshot source, int drop, Frame top,
            Function<String, String> renameSecond) {
        return copy(source, drop, top, renameSecond, null);
    }


    /** {@code onlyGroup} non-null: the paths under the first-level node of that name alone. */
    private static StackTreeSnapshot copy(StackTreeSnapshot source, int drop, Frame top,
            Function<String, String> renameSecond, String onlyGroup) {
        int n = source.size();
        StackTree tree = new StackTree(Math.max(3, source.maxDepth() + 2), n + n / 16 + 16, false);
        List<Frame> path = new ArrayList<>();
        Frame[] frames = new Frame[Math.max(1, source.maxDepth() + 1)];
        for (int node = 1; node < n; node++) {
            int depth = source.depth(node);
            String name = source.frame(node);
            if (depth == 2 && renameSecond != null) {
                name = renameSecond.apply(name);
            }
            frames[depth] = name == null ? null : new Frame(name, source.kind(node));
            long self = source.self(node);
            if (self <= 0 || onlyGroup != null && !frames[1].name().equals(onlyGroup)) {
                continue;
            }
            path.clear();
            if (top != null) {
                path.add(top);
            }
            for (int d = 1 + drop; d <= depth; d++) {
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
