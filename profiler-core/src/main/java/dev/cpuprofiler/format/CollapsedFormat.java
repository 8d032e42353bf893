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

/**
 * One {@code frame;frame;frame count} line per node with self weight, root excluded: the input of flamegraph.pl,
 * speedscope and most profile tools. Inlined and kernel frames keep async-profiler's {@code _[i]} / {@code _[k]}
 * suffix (and a Java frame whose name does not look like Java gets {@code _[j]}), so that the collapsed-stack parser
 * ({@code StackTree.fromCollapsed}) reads back the same kinds.
 *
 * <p>Canonical order: the tree's preorder (children largest total first, ties by name, then kind), a node's own line
 * before its children's. Hot paths come first, and collapsed → tree → collapsed reproduces this text exactly,
 * whatever the order of the input lines.
 */
final class CollapsedFormat extends FormatBase {

    CollapsedFormat() {
        super("collapsed", "text/plain;charset=UTF-8", ".collapsed.txt");
    }

    @Override
    public void write(Profile profile, ProfileView view, OutputStream out) throws IOException {
        write(view.tree(profile), out);
    }

    static void write(StackTreeSnapshot tree, OutputStream out) throws IOException {
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
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
            long self = tree.self(node);
            if (self > 0) {
                writer.append(stack).append(' ').append(Long.toString(self)).append('\n');
            }
        }
        writer.flush();
    }
}
