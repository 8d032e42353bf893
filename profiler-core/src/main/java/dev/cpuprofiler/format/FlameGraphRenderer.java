package dev.cpuprofiler.format;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.internal.stack.FrameNames;

import one.convert.Arguments;
import one.convert.CallStack;
import one.convert.FlameGraph;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.LongUnaryOperator;

/**
 * A self-contained HTML flame graph (canvas and inline script, nothing loaded from the network), drawn by
 * async-profiler's own converter ({@code tools.profiler:jfr-converter}, {@link FlameGraph}): each node with self
 * weight is fed to it as one stack, with async-profiler's frame types, so its colours and its "inlined" details apply.
 * It opens as an icicle, root at the top: the answer (the root and the widest frames) is in view whatever the depth.
 *
 * <p>The converter's template links to async-profiler's home page ({@code <a href='https://github.com/...'>}) and
 * marks its inline SVG icons with the SVG namespace URI. Neither is loaded, but an offline page should not point
 * outside: the link becomes plain text (the credit stays), the namespace attributes (ignored by HTML parsers for
 * inline SVG) are dropped, and a {@code Content-Security-Policy} meta tag ({@code default-src 'none'}) makes the
 * browser refuse any request the page might still try. No frame name, nor two neighbouring ones, can end the page's
 * script or add markup to it ({@link #namesAsScriptText}); the title is HTML-escaped.
 *
 * <p>Deep stacks (up to {@link CpuProfilerOptions#LARGEST_STACK_DEPTH} frames): the page's frame data is flat, one
 * call per frame with its level, so its script nests nothing; the converter writes it recursively, so a deep tree is
 * written on a thread with a stack to match; and the page's canvas, which can only show about 2000 levels (1000 on a
 * HiDPI screen), is made to show the levels from the clicked frame on ({@link #deepLevels}).
 */
final class FlameGraphRenderer {

    private static final String CSP = "<meta http-equiv='Content-Security-Policy' content=\"default-src 'none'; "
            + "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">";
    private static final String CHARSET_META = "<meta charset='utf-8'>";
    /** Where the converter's page holds the frame names ({@link #namesAsScriptText}). */
    private static final String NAMES_START = "\nconst cpool = [\n";
    private static final String NAMES_END = "\n];\nunpack(cpool);\n";

    /** Trees up to this deep are drawn on the caller's thread; deeper ones on a thread with a stack to match. */
    static final int INLINE_DEPTH = 256;
    /**
     * Levels (root included) of 16-pixel rows that fit a canvas of 32767 device pixels at up to 4 device pixels per
     * CSS pixel; deeper graphs get {@link #deepLevels}.
     */
    static final int MAX_CANVAS_LEVELS = 32767 / 16 / 4;
    private static final long BASE_STACK_BYTES = 1L << 20;
    private static final long STACK_BYTES_PER_LEVEL = 1024;

    private final String title;
    private final double minWidthPercent;

    FlameGraphRenderer() {
        this("CPU profile", 0);
    }

    /**
     * @param title the page heading (escaped here: the converter writes it into the HTML as is)
     * @param minWidthPercent frames narrower than this share of all samples are left out, to keep huge trees light
     */
    FlameGraphRenderer(String title, double minWidthPercent) {
        this.title = title;
        this.minWidthPercent = minWidthPercent;
    }

    void render(StackTreeSnapshot tree, OutputStream out) throws IOException {
        render(tree, null, out);
    }

    /**
     * A differential flame graph, drawn by the converter's own diff ({@link FlameGraph#diff}, {@code jfrconv --diff
     * reference profile}): the profile's frames at their widths, each coloured by how its self weight compares with
     * the same frame's (same path, name and type) in the reference, scaled per second ({@link ComparedTrees}): red
     * more, blue less, the deeper the larger the change against the largest; grey the same; yellow a frame the
     * reference never reached. What only the reference ran has no width in the profile, so it is not drawn.
     */
    void render(ComparedTrees trees, OutputStream out) throws IOException {
        render(trees.profile(), trees, out);
    }

    private void render(StackTreeSnapshot tree, ComparedTrees compared, OutputStream out) throws IOException {
        int depth = compared == null ? tree.maxDepth() : Math.max(tree.maxDepth(), compared.reference().maxDepth());
        String html = depth <= INLINE_DEPTH ? draw(tree, compared) : drawOnDeepStack(tree, compared, depth);
        out.write(namesAsScriptText(offline(html, tree.maxDepth() + 1)).getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private String draw(StackTreeSnapshot tree, ComparedTrees compared) {
        Arguments args = new Arguments();
        args.title = escapeHtml(title);
        args.minwidth = minWidthPercent;
        // An icicle: the root on top. Upright, a graph of 150-frame stacks put the root 2,400 px down, below the fold,
        // and a reader saw only thin spikes; the root and the widest frames are now in view at any depth (the page's
        // Invert button, or I, still turns it upright).
        args.inverted = true;
        FlameGraph flameGraph = new FlameGraph(args);
        addSamples(flameGraph, tree, LongUnaryOperator.identity());
        if (compared != null) {
            // The converter's CLI compares the second file with the first: current.diff(base), colours by
            // current.self - base.self. The reference is the base.
            FlameGraph base = new FlameGraph(new Arguments());
            addSamples(base, compared.reference(), compared::referenceWeight);
            flameGraph.diff(base);
        }
        ByteArrayOutputStream html = new ByteArrayOutputStream(1 << 16);
        try (PrintStream ps = new PrintStream(html, false, StandardCharsets.UTF_8)) {
            flameGraph.dump(ps);
        }
        return html.toString(StandardCharsets.UTF_8);
    }

    /**
     * Each node with self weight as one stack of async-profiler's frame types, its weight as {@code weight} makes it:
     * one the reference's scaling rounds to 0 still adds its frames, which then exist there (not "new").
     */
    private static void addSamples(FlameGraph flameGraph, StackTreeSnapshot tree, LongUnaryOperator weight) {
        CallStack stack = new CallStack();
        int stackDepth = 0;
        for (int node = 1; node < tree.size(); node++) {
            int depth = tree.depth(node);
            for (; stackDepth >= depth; stackDepth--) {
                stack.pop();
            }
            // A control character (a newline in a thread's name) would end the page's JavaScript string: a space.
            stack.push(FrameNames.sanitize(ShownFrame.of(tree, node)), frameType(tree.kind(node)));
            stackDepth++;
            long self = tree.self(node);
            if (self > 0) {
                flameGraph.addSample(stack, weight.applyAsLong(self));
            }
        }
    }

    /**
     * The converter writes its frames (and compares two graphs) recursively, one Java call per level (about 250 bytes
     * of stack each): the deepest stacks overflow a default 1 MB thread stack. A deep tree is therefore drawn on a
     * thread of its own whose stack is sized for its depth (reserved, not committed: only what the walk touches costs
     * memory).
     */
    private String drawOnDeepStack(StackTreeSnapshot tree, ComparedTrees compared, int depth) throws IOException {
        long stackSize = BASE_STACK_BYTES + (depth + 1L) * STACK_BYTES_PER_LEVEL;
        String[] html = new String[1];
        Throwable[] failure = new Throwable[1];
        Thread drawer = new Thread(null, () -> {
            try {
                html[0] = draw(tree, compared);
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, "cpuprofiler-flamegraph", stackSize);
        drawer.setDaemon(true);
        drawer.start();
        try {
            drawer.join();
        } catch (InterruptedException e) {
            drawer.interrupt();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while drawing the flame graph");
        }
        if (failure[0] instanceof RuntimeException e) {
            throw e;
        }
        if (failure[0] instanceof Error e) {
            throw e;
        }
        if (failure[0] != null) {
            throw new IOException("the flame graph could not be drawn", failure[0]);
        }
        return html[0];
    }

    /**
     * Removes the template's outbound URLs (only from the template part, before the frame data) and adds the CSP;
     * for a graph of more levels than a canvas can show, lets it show them (see {@link #deepLevels}).
     */
    static String offline(String html, int levels) {
        int data = html.indexOf("const cpool");
        String head = data < 0 ? html : html.substring(0, data);
        String rest = data < 0 ? "" : html.substring(data);
        if (levels > MAX_CANVAS_LEVELS) {
            head = deepLevels(head);
        }
        head = head.replaceAll(" xmlns='http://www\\.w3\\.org/2000/svg'", "")
                .replaceAll("<a href='https?://[^']*'>([^<]*)</a>", "$1");
        int charset = head.indexOf(CHARSET_META);
        if (charset >= 0) {
            int at = charset + CHARSET_META.length();
            head = head.substring(0, at) + "\n" + CSP + head.substring(at);
        } else {
            head = head.replaceFirst("<head>", "<head>\n" + CSP);
        }
        return head + rest;
    }

    /**
     * The template draws level {@code h} of the graph {@code 16 * h} pixels from the canvas's edge on a canvas as high
     * as all levels, capped at 32767 CSS pixels: levels past 2047 fall off it, and on a screen with 2 device pixels
     * per CSS pixel a graph of more than 1023 levels asks for a canvas larger than browsers draw (32767 pixels), so it
     * stays blank. Both would hide most of a stack 4000 frames deep. Here the canvas gets as many rows as fit in 32767
     * device pixels, and the rows show the levels from the zoomed frame's parent on (from the root until a frame is
     * clicked): clicking a frame near the top brings the levels above it into view, down to the deepest. Graphs that
     * fit are drawn exactly as before. The edits are made only if every place they change is found exactly once in
     * the converter's template, else the page is left as the converter made it.
     */
    static String deepLevels(String head) {
        String[][] edits = {
            {"const canvasHeight = canvas.offsetHeight;",
                "const canvasHeight = Math.min(canvas.offsetHeight, 16 * Math.floor(32767 / 16 / (devicePixelRatio || 1)));"
                        + " canvas.style.height = canvasHeight + 'px';"
                        + " const rows = Math.floor(canvasHeight / 16); let base = 0;"},
            {"root = newRoot || levels[0][0];",
                "root = newRoot || levels[0][0]; base = Math.max(0, Math.min(root.level - 1, levels.length - rows));"},
            {"const y = inverted ? h * 16 : canvasHeight - (h + 1) * 16;",
                "if (h < base || h >= base + rows) continue;"
                        + " const y = inverted ? (h - base) * 16 : canvasHeight - (h - base + 1) * 16;"},
            {"const h = Math.floor((inverted ? event.offsetY : (canvasHeight - event.offsetY)) / 16);",
                "const h = base + Math.floor((inverted ? event.offsetY : (canvasHeight - event.offsetY)) / 16);"},
            {"hl.style.top = ((inverted ? h * 16 : canvasHeight - (h + 1) * 16) + canvas.offsetTop) + 'px';",
                "hl.style.top = ((inverted ? (h - base) * 16 : canvasHeight - (h - base + 1) * 16) + canvas.offsetTop)"
                        + " + 'px';"},
            {"window.scroll(0, inverted ? root.level * 16 : canvasHeight - (root.level + 1) * 16);",
                "window.scroll(0, inverted ? (root.level - base) * 16 : canvasHeight - (root.level - base + 1) * 16);"},
        };
        for (String[] edit : edits) {
            int at = head.indexOf(edit[0]);
            if (at < 0 || head.indexOf(edit[0], at + 1) >= 0) {
                return head;
            }
        }
        for (String[] edit : edits) {
            head = head.replace(edit[0], edit[1]);
        }
        return head;
    }

    /** async-profiler's frame type numbers ({@code one.convert.Frame.TYPE_*}). */
    static byte frameType(FrameKind kind) {
        return switch (kind) {
            case JAVA -> 1;      // TYPE_JIT_COMPILED
            case INLINED -> 2;   // TYPE_INLINED
            case KERNEL -> 5;    // TYPE_KERNEL
            default -> 3;  // TYPE_NATIVE (native, unknown, a group), as async-profiler draws its thread frames
        };
    }

    /**
     * The converter writes the frame names into the page's script as {@code const cpool = ['all', '...', ...];},
     * sorted, each in a single-quoted JavaScript string in which it escapes only {@code \} and {@code '}. Each name after
     * the first starts with one character that codes the length it shares with the name before ({@code length + ' '},
     * at most 95: {@code ' '} to DEL, 0x7f), so two neighbours can spell markup neither holds: sharing 28
     * characters codes as {@code <}, and {@code <} then the next name's {@code /script>} ends the script. The HTML
     * parser ends a script only at a {@code <} ({@code </script}, or {@code <!--} with {@code <script} keeping it open
     * past its end), so every {@code <} of the names, the codes included, becomes {@code \x3c}: the same character to
     * the script, which draws the names as they are, and no tag to the parser. Every {@code <} there is inside a string
     * (the converter's escapes are {@code \\} and {@code \'}, never a backslash before a {@code <}). A page without the
     * array where the converter writes it is refused rather than sent unchecked.
     */
    static String namesAsScriptText(String html) {
        int start = html.indexOf(NAMES_START);
        // The array's last line; names hold no line break (sanitized), so none ends it early.
        int end = start < 0 ? -1 : html.indexOf(NAMES_END, start);
        if (end < 0) {
            throw new IllegalStateException("no frame-name array where the converter writes it");
        }
        return html.substring(0, start) + html.substring(start, end).replace("<", "\\x3c") + html.substring(end);
    }

    static String escapeHtml(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '&' -> sb.append("&amp;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c < ' ' ? ' ' : c);
            }
        }
        return sb.toString();
    }
}
