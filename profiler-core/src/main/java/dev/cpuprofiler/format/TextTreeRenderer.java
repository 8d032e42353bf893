package dev.cpuprofiler.format;

import dev.cpuprofiler.StackTreeSnapshot;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * The merged stacks as indented text, in the shape of the classic merged-stack rendering: one line per frame with its
 * total count and share of all samples; a chain of single callees stays at the same indentation and each branching
 * point indents its branches one step, each branch closed by a {@code count ~~~~} line. Stacks 80 frames deep thus
 * stay readable (indenting every frame would push names hundreds of columns right; that style is available too).
 *
 * <pre>
 * Tree weight: 2895 (truncated: 0 samples, 0 frames)
 *  2895 100.00%  all
 *  2895 100.00%  java.lang.Thread.run
 *  2895 100.00%  app.Worker.loop
 *    1500  51.81%  app.Hot.compute  [self 20]
 *    1480  51.12%  app.Hot.inner
 *    1500 ~~~~
 *    1390  48.01%  app.Cold.read (native)
 *    1390 ~~~~
 *       5   0.17%  [2 more below 1.0%]
 * </pre>
 *
 * With a minimum percentage, children below it are left out and counted on one line per parent (the last line
 * above, rendered with 1%).
 */
final class TextTreeRenderer {

    private static final String INDENT = "  ";

    private final double minPercent;
    private final boolean indentEveryFrame;

    /** Everything shown, indentation at branching points. */
    TextTreeRenderer() {
        this(0, false);
    }

    /**
     * @param minPercent children whose total is below this share of all samples (0..100) are hidden and counted
     * @param indentEveryFrame indent each frame one step deeper than its caller instead of only at branching points
     */
    TextTreeRenderer(double minPercent, boolean indentEveryFrame) {
        if (!(minPercent >= 0 && minPercent <= 100)) {
            throw new IllegalArgumentException("minPercent must be between 0 and 100, was " + minPercent);
        }
        this.minPercent = minPercent;
        this.indentEveryFrame = indentEveryFrame;
    }

    void render(StackTreeSnapshot tree, OutputStream out) throws IOException {
        Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        long all = tree.totalSamples();
        int width = Math.max(5, Long.toString(all).length());
        // The tree's weight, not "samples": with a look-back part it also counts the look-back's weighed samples.
        w.append("Tree weight: ").append(Long.toString(all))
                .append(" (truncated: ").append(Long.toString(tree.truncatedSamples())).append(" samples, ")
                .append(Long.toString(tree.truncatedFrames())).append(" frames)");
        if (minPercent > 0) {
            w.append(", frames below ").append(Double.toString(minPercent)).append("% hidden");
        }
        w.append('\n');

        // Explicit stack of open nodes: deep trees must not overflow the Java stack.
        int capacity = tree.maxDepth() + 1;
        int[] node = new int[capacity];
        int[] level = new int[capacity];
        int[] cursor = new int[capacity];
        boolean[] branching = new boolean[capacity];
        int[] hiddenCount = new int[capacity];
        long[] hiddenTotal = new long[capacity];
        int top = 0;

        line(w, tree, 0, 0, width, all);
        top = open(tree, 0, 0, all, node, level, cursor, branching, hiddenCount, hiddenTotal, top);
        while (top > 0) {
            int f = top - 1;
            int child = cursor[f];
            while (child >= 0 && hidden(tree.total(child), all)) {
                child = tree.nextSibling(child);
            }
            if (child >= 0) {
                cursor[f] = tree.nextSibling(child);
                int childLevel = branching[f] || indentEveryFrame ? level[f] + 1 : level[f];
                line(w, tree, child, childLevel, width, all);
                top = open(tree, child, childLevel, all, node, level, cursor, branching, hiddenCount, hiddenTotal,
                        top);
                continue;
            }
            if (hiddenCount[f] > 0) {
                int hiddenLevel = branching[f] || indentEveryFrame ? level[f] + 1 : level[f];
                indent(w, hiddenLevel);
                count(w, hiddenTotal[f], width);
                w.append(' ').append(percent(hiddenTotal[f], all)).append("  [").append(
                        Integer.toString(hiddenCount[f])).append(" more below ").append(Double.toString(minPercent))
                        .append("%]\n");
            }
            top--;
            if (top > 0 && branching[top - 1]) {
                indent(w, level[f]);
                count(w, tree.total(node[f]), width);
                w.append(" ~~~~\n");
            }
        }
        w.flush();
    }

    private int open(StackTreeSnapshot tree, int n, int lvl, long all, int[] node, int[] level, int[] cursor,
            boolean[] branching, int[] hiddenCount, long[] hiddenTotal, int top) {
        int visible = 0;
        int hidden = 0;
        long hiddenSum = 0;
        for (int c = tree.firstChild(n); c >= 0; c = tree.nextSibling(c)) {
            if (hidden(tree.total(c), all)) {
                hidden++;
                hiddenSum += tree.total(c);
            } else {
                visible++;
            }
        }
        node[top] = n;
        level[top] = lvl;
        cursor[top] = tree.firstChild(n);
        branching[top] = visible + (hidden > 0 ? 1 : 0) > 1;
        hiddenCount[top] = hidden;
        hiddenTotal[top] = hiddenSum;
        return top + 1;
    }

    private boolean hidden(long total, long all) {
        return minPercent > 0 && total * 100.0 < minPercent * all;
    }

    private static void line(Writer w, StackTreeSnapshot tree, int n, int lvl, int width, long all)
            throws IOException {
        indent(w, lvl);
        count(w, tree.total(n), width);
        w.append(' ').append(percent(tree.total(n), all)).append("  ").append(ShownFrame.of(tree, n));
        switch (tree.kind(n)) {
            case INLINED -> w.append(" (inlined)");
            case NATIVE -> w.append(" (native)");
            case KERNEL -> w.append(" (kernel)");
            default -> {
            }
        }
        long self = tree.self(n);
        if (self > 0 && self < tree.total(n)) {
            w.append("  [self ").append(Long.toString(self)).append(']');
        }
        w.append('\n');
    }

    private static void indent(Writer w, int lvl) throws IOException {
        for (int i = 0; i < lvl; i++) {
            w.append(INDENT);
        }
    }

    private static void count(Writer w, long value, int width) throws IOException {
        String s = Long.toString(value);
        for (int i = s.length(); i < width; i++) {
            w.append(' ');
        }
        w.append(s);
    }

    /** {@code part / whole} as a percentage with two decimals, right-aligned in 7 characters. */
    static String percent(long part, long whole) {
        long basisPoints = whole == 0 ? 0 : Math.round(part * 10000.0 / whole);
        String s = basisPoints / 100 + "." + (basisPoints % 100 < 10 ? "0" : "") + basisPoints % 100 + "%";
        return s.length() >= 7 ? s : " ".repeat(7 - s.length()) + s;
    }
}
