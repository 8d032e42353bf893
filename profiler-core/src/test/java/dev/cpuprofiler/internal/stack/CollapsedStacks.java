package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.FrameKind;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads collapsed stacks back into a tree, one {@code frame;frame;frame count} line per stack (the format of
 * flamegraph.pl, async-profiler's {@code collapsed} output and the collapsed format's), so that tests can check the
 * collapsed format by its round trip. async-profiler's {@code _[j]}, {@code _[i]}, {@code _[k]} suffixes give the
 * frame kind; without one, the name's shape does. Lines that repeat a stack add up.
 */
public final class CollapsedStacks {

    private CollapsedStacks() {
    }

    /**
     * A tree of these stacks with the widest limits the options allow, never grouped by thread (the text has none).
     *
     * @throws IllegalArgumentException naming the line when a line has no count or a negative one
     */
    public static StackTree parse(String collapsed) {
        StackTree tree = new StackTree(CpuProfilerOptions.LARGEST_STACK_DEPTH, CpuProfilerOptions.LARGEST_TREE_NODES,
                false);
        try (BufferedReader reader = new BufferedReader(new StringReader(collapsed))) {
            List<Frame> frames = new ArrayList<>();
            int lineNumber = 0;
            for (String line; (line = reader.readLine()) != null; ) {
                lineNumber++;
                line = line.strip();
                if (line.isEmpty()) {
                    continue;
                }
                int space = Math.max(line.lastIndexOf(' '), line.lastIndexOf('\t'));
                long weight;
                try {
                    weight = Long.parseLong(line.substring(space + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("line " + lineNumber + ": expected 'frame;frame;... count', "
                            + "got '" + (line.length() <= 80 ? line : line.substring(0, 77) + "...") + "'");
                }
                if (weight < 0) {
                    throw new IllegalArgumentException("line " + lineNumber + ": negative count " + weight);
                }
                frames.clear();
                String stack = space < 0 ? "" : line.substring(0, space).stripTrailing();
                for (int from = 0, to; from < stack.length(); from = to + 1) {
                    to = stack.indexOf(';', from);
                    if (to < 0) {
                        to = stack.length();
                    }
                    if (to > from) {
                        frames.add(frame(stack.substring(from, to)));
                    }
                }
                tree.accept(frames, null, weight);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return tree;
    }

    /**
     * A frame read from collapsed text: its suffix says the kind, otherwise the name's shape does ({@code [...]}
     * synthetic, {@code a.b.C.m} or {@code a/b/C.m} Java, anything else native).
     */
    static Frame frame(String token) {
        // A suffix sets a kind of its own: without one, the kind stays unknown and the name's shape says it.
        Frame suffixed = FrameNames.normalize(token, FrameKind.UNKNOWN);
        return suffixed.kind() != FrameKind.UNKNOWN ? suffixed
                : FrameNames.normalize(token, FrameNames.guessKind(token));
    }
}
