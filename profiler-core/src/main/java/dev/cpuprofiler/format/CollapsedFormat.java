package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.internal.stack.FrameNames;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One {@code frame;frame;frame count} line per node with self weight, root excluded: the input of flamegraph.pl,
 * speedscope and most profile tools. Inlined and kernel frames keep async-profiler's {@code _[i]} / {@code _[k]}
 * suffix (and a Java frame whose name does not look like Java gets {@code _[j]}), so that a reader of collapsed stacks
 * gets the same kinds back.
 *
 * <p>Canonical order: the tree's preorder (children largest total first, ties by name, then kind), a node's own line
 * before its children's. Hot paths come first, and collapsed → tree → collapsed reproduces this text exactly,
 * whatever the order of the input lines.
 *
 * <p>Compared with another profile ({@link ProfileView#reference()}): {@code frame;frame;frame reference profile},
 * two counts a line, the input of FlameGraph's difference tools ({@code flamegraph.pl} draws it as a differential
 * flame graph, as {@code difffolded.pl} would have written it): every stack of either profile, the one that lacks it
 * 0; the reference's counts scaled to weigh per second as the profile's do ({@link ComparedTrees}), to whole samples.
 * The profile's stacks in its canonical order come first, then those only the reference ran, in its order.
 */
final class CollapsedFormat extends FormatBase {

    CollapsedFormat() {
        super("collapsed", "text/plain;charset=UTF-8", ".collapsed.txt");
    }

    @Override
    public void write(Profile profile, ProfileView view, OutputStream out) throws IOException {
        if (view.reference() == null) {
            write(view.tree(profile), out);
        } else {
            write(ComparedTrees.of(profile, view), out);
        }
    }

    static void write(StackTreeSnapshot tree, OutputStream out) throws IOException {
        Writer writer = writer(out);
        walk(tree, (stack, self) -> {
            if (self > 0) {
                writer.append(stack).append(' ').append(Long.toString(self)).append('\n');
            }
        });
        writer.flush();
    }

    /** Two counts a line, the reference's first. */
    static void write(ComparedTrees trees, OutputStream out) throws IOException {
        Map<String, Long> reference = new LinkedHashMap<>();
        walk(trees.reference(), (stack, self) -> {
            if (self > 0) {
                reference.put(stack.toString(), trees.referenceWeight(self));
            }
        });
        Writer writer = writer(out);
        walk(trees.profile(), (stack, self) -> {
            Long before = reference.isEmpty() ? null : reference.remove(stack.toString());
            line(writer, stack, before == null ? 0 : before, self);
        });
        for (Map.Entry<String, Long> only : reference.entrySet()) {
            line(writer, only.getKey(), only.getValue(), 0);
        }
        writer.flush();
    }

    private static void line(Writer writer, CharSequence stack, long reference, long profile) throws IOException {
        if (reference > 0 || profile > 0) {
            writer.append(stack).append(' ').append(Long.toString(reference)).append(' ')
                    .append(Long.toString(profile)).append('\n');
        }
    }

    /** What {@link #walk} hands each node: its stack as a line names it, and its self weight. */
    private interface StackVisitor {
        void visit(StringBuilder stack, long self) throws IOException;
    }

    /** Every node but the root, in preorder. */
    private static void walk(StackTreeSnapshot tree, StackVisitor visitor) throws IOException {
        StringBuilder stack = new StringBuilder(256);
        int[] lengthAtDepth = new int[tree.maxDepth() + 1];
        for (int node = 1; node < tree.size(); node++) {
            int depth = tree.depth(node);
            stack.setLength(lengthAtDepth[depth - 1]);
            if (depth > 1) {
                stack.append(';');
            }
            String name = ShownFrame.of(tree, node);
            stack.append(name).append(FrameNames.collapsedSuffix(name, tree.kind(node)));
            lengthAtDepth[depth] = stack.length();
            visitor.visit(stack, tree.self(node));
        }
    }

    private static Writer writer(OutputStream out) {
        return new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    }
}
