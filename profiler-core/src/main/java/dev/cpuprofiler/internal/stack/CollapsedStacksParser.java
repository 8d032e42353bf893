package dev.cpuprofiler.internal.stack;


import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads collapsed stacks, one {@code frame;frame;frame count} line per stack (the format of flamegraph.pl,
 * async-profiler's {@code collapsed} output and the collapsed format's), into a {@link StackSink}.
 * async-profiler's {@code _[j]}, {@code _[i]}, {@code _[k]} suffixes give the frame kind; without one, the
 * name's shape does (see {@link FrameNames#fromCollapsed}). Lines that repeat a stack add up.
 */
final class CollapsedStacksParser {

    private CollapsedStacksParser() {
    }

    /**
     * @throws IllegalArgumentException naming the line when a line has no count or a negative one
     */
    public static void parse(Reader in, StackSink sink) throws IOException {
        BufferedReader reader = in instanceof BufferedReader b ? b : new BufferedReader(in);
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
                throw new IllegalArgumentException("line " + lineNumber + ": expected 'frame;frame;... count', got '"
                        + abbreviate(line) + "'");
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
                    frames.add(FrameNames.fromCollapsed(stack.substring(from, to)));
                }
            }
            sink.accept(frames, null, weight);
        }
    }

    private static String abbreviate(String line) {
        return line.length() <= 80 ? line : line.substring(0, 77) + "...";
    }
}
