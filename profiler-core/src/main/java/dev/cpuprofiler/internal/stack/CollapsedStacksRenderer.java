package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.StackTreeSnapshot;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * Writes collapsed stacks: one {@code frame;frame;frame count} line per node with self weight, root excluded — the
 * input of flamegraph.pl, speedscope and most profile tools. Inlined and kernel frames keep async-profiler's
 * {@code _[i]} / {@code _[k]} suffix (and a Java frame whose name does not look like Java gets {@code _[j]}), so
 * {@link CollapsedStacksParser} reads back the same kinds.
 *
 * <p>Canonical order: the tree's preorder (children largest total first, ties by name, then kind), a node's own line
 * before its children's. Hot paths come first, and collapsed → tree → collapsed reproduces this text exactly,
 * whatever the order of the input lines.
 */
public final class CollapsedStacksRenderer implements StackTreeRenderer {

    @Override
    public String mediaType() {
        return "text/plain; charset=utf-8";
    }

    @Override
    public void render(StackTreeSnapshot tree, OutputStream out) throws IOException {
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        StringBuilder stack = new StringBuilder(256);
        int[] lengthAtDepth = new int[tree.maxDepth() + 1];
        for (int node = 1; node < tree.size(); node++) {
            int depth = tree.depth(node);
            stack.setLength(lengthAtDepth[depth - 1]);
            if (depth > 1) {
                stack.append(';');
            }
            String name = tree.frame(node);
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
