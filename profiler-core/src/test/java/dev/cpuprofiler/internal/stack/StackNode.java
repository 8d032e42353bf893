package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * One node of a merged tree as a plain value, in the shape of the endpoint's JSON contract
 * ({@code {"frame": "all", "kind": ..., "total": 2890, "self": 0, "children": [...]}}), for tests that compare small
 * trees; the product renders straight from a {@link StackTreeSnapshot}. Its {@code equals},
 * {@code hashCode}, {@code toString} and Jackson serialization recurse once per level (and Jackson refuses more than
 * 500 nesting levels by default): for stacks thousands of frames deep use the snapshot and its renderers, which
 * walk iteratively.
 *
 * @param frame the frame name ({@code all} for the root; a group's name in brackets)
 * @param kind what kind of code the frame is ({@link FrameKind#UNKNOWN} for the root and the markers), or which group
 * @param total weight of the samples through this node
 * @param self weight of the samples ending in this node
 * @param children largest total first
 */
@JsonPropertyOrder({"frame", "kind", "total", "self", "children"})
public record StackNode(String frame, FrameKind kind, long total, long self, List<StackNode> children) {

    public StackNode {
        children = List.copyOf(children);
    }

    /** The snapshot's tree as nested records. */
    public static StackNode of(StackTreeSnapshot snapshot) {
        int n = snapshot.size();
        StackNode[] built = new StackNode[n];
        List<StackNode> children = new ArrayList<>();
        for (int node = n - 1; node >= 0; node--) {
            children.clear();
            for (int c = snapshot.firstChild(node); c >= 0; c = snapshot.nextSibling(c)) {
                children.add(built[c]);
                built[c] = null;
            }
            // A group's name in brackets, as the JSON format writes it.
            String frame = snapshot.kind(node).isGroup() ? "[" + snapshot.frame(node) + "]" : snapshot.frame(node);
            built[node] = new StackNode(frame, snapshot.kind(node), snapshot.total(node), snapshot.self(node),
                    children);
        }
        return built[0];
    }

    /** The child with this frame name, or {@code null}. */
    public StackNode child(String frameName) {
        for (StackNode c : children) {
            if (c.frame.equals(frameName)) {
                return c;
            }
        }
        return null;
    }
}
