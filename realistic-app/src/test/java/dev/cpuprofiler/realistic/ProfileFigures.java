package dev.cpuprofiler.realistic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Figures of a CPU profile read from collapsed stacks ({@code frame;frame;frame count}, root first), computed the
 * same way for the starter's profile and for async-profiler's own agent, so the two compare like with like.
 *
 * <p>Frames are normalised first: async-profiler's annotations ({@code _[j]} compiled, {@code _[i]} inlined,
 * {@code _[0]}/{@code _[1]} interpreted/C1, {@code _[k]} kernel) are stripped and say the frame's kind; slashes in Java
 * names become dots; hidden-class addresses ({@code $$Lambda$12/0x0000000800c0b000}, {@code LambdaForm$MH/0x...})
 * are dropped. A frame without annotation is Java when it looks like {@code package.Class.method} (identifier parts
 * separated by dots, not a {@code .so} library, no {@code ::}, spaces or brackets); anything else is native.
 *
 * <ul>
 *   <li><b>idle wait %</b>: of all samples, those whose leaf-most Java frame (the leaf frame when the stack has no
 *       Java frame) is one of {@link #IDLE_WAITS}: a thread blocked in accept, a selector, a socket read, park,
 *       sleep or wait. A CPU profile should hardly contain them: a waiting thread burns no CPU.</li>
 *   <li><b>root cut %</b>: of all samples, those whose root frame is {@code [truncated]} (the starter's marker of a
 *       stack whose outer frames were cut), or, for stacks with a Java frame, whose root-most Java frame is not a
 *       thread's entry point: a method named {@code run}, {@code runWith} or {@code main} ({@code Thread.run},
 *       {@code TaskThread$WrappingRunnable.run}, {@code ForkJoinWorkerThread.run}, {@code App.main}...). A cut
 *       stack that happens to keep a {@code run} method as its outermost frame is missed by the second test; the
 *       marker is the main signal.</li>
 *   <li><b>dispatch %</b>: of the Java samples (at least one Java frame), those through
 *       {@code DispatcherServlet.doDispatch}: the share of the JVM's Java CPU that serves requests.</li>
 *   <li><b>top self</b>: the leaf-most Java frame of most Java samples, and its % of the Java samples.</li>
 *   <li><b>request depth</b>: Java frames from the root to the leaf of the samples through {@code doDispatch}
 *       (median, 90th percentile, maximum) and the share of those at least 80 deep.</li>
 * </ul>
 */
public record ProfileFigures(long samples, long javaSamples, double idleWaitPercent, double rootCutPercent,
        double dispatchPercent, String topSelfMethod, double topSelfPercent, int requestDepthMedian,
        int requestDepthP90, int requestDepthMax, double deepRequestPercent, Map<String, Long> idleLeaves) {

    public static final String DISPATCH = "org.springframework.web.servlet.DispatcherServlet.doDispatch";
    public static final String TRUNCATED = "[truncated]";

    /** Methods a thread sits in while it waits, not while it burns CPU. */
    public static final Set<String> IDLE_WAITS = Set.of(
            // accepting connections, selectors and polls
            "sun.nio.ch.Net.accept", "sun.nio.ch.Net.poll", "sun.nio.ch.ServerSocketChannelImpl.accept0",
            "sun.nio.ch.EPoll.wait", "sun.nio.ch.KQueue.poll", "sun.nio.ch.WEPoll.wait",
            "sun.nio.ch.PollSelectorImpl.poll", "java.net.PlainSocketImpl.socketAccept",
            // blocking socket and pipe reads
            "sun.nio.ch.SocketDispatcher.read0", "sun.nio.ch.SocketDispatcher.readv0",
            "sun.nio.ch.NioSocketImpl.park", "java.net.SocketInputStream.socketRead0",
            "sun.nio.ch.FileDispatcherImpl.read0", "sun.nio.ch.UnixFileDispatcherImpl.read0",
            // parking, sleeping, waiting
            "jdk.internal.misc.Unsafe.park", "sun.misc.Unsafe.park",
            "java.lang.Thread.sleep", "java.lang.Thread.sleep0", "java.lang.Thread.sleepNanos0",
            "java.lang.Object.wait", "java.lang.Object.wait0",
            "java.lang.ref.Reference.waitForReferencePendingList",
            "java.lang.ProcessHandleImpl.waitForProcessExit0");

    private static final Set<String> THREAD_ENTRY_METHODS = Set.of("run", "runWith", "main");
    private static final Pattern ANNOTATION = Pattern.compile("_\\[([a-z0-9])\\]$");
    private static final Pattern HIDDEN_CLASS_ADDRESS = Pattern.compile("[./]0x[0-9a-fA-F]+");
    private static final Pattern LAMBDA_NUMBER = Pattern.compile("\\$\\$Lambda\\$\\d+");
    private static final String LAMBDA = java.util.regex.Matcher.quoteReplacement("$$Lambda");

    /** One normalised frame. */
    record Frame(String name, boolean java) {
    }

    /** Computes the figures of collapsed text. */
    public static ProfileFigures of(String collapsed) {
        long samples = 0;
        long javaSamples = 0;
        long idle = 0;
        long cut = 0;
        long dispatch = 0;
        long deep = 0;
        Map<String, Long> self = new HashMap<>();
        Map<String, Long> idleLeaves = new HashMap<>();
        Map<Integer, Long> requestDepths = new HashMap<>();
        Map<String, Frame> cache = new HashMap<>();
        for (String line : collapsed.split("\n")) {
            line = line.strip();
            int space = line.lastIndexOf(' ');
            if (line.isEmpty() || space <= 0) {
                continue;
            }
            long count;
            try {
                count = Long.parseLong(line.substring(space + 1));
            } catch (NumberFormatException e) {
                continue;
            }
            String[] tokens = line.substring(0, space).split(";");
            List<Frame> stack = new ArrayList<>(tokens.length);
            for (String token : tokens) {
                stack.add(cache.computeIfAbsent(token, ProfileFigures::frame));
            }
            samples += count;

            int rootJava = -1;
            int leafJava = -1;
            int javaDepth = 0;
            boolean throughDispatch = false;
            for (int i = 0; i < stack.size(); i++) {
                Frame f = stack.get(i);
                if (f.java()) {
                    javaDepth++;
                    if (rootJava < 0) {
                        rootJava = i;
                    }
                    leafJava = i;
                    throughDispatch |= f.name().equals(DISPATCH);
                }
            }
            String leaf = leafJava >= 0 ? stack.get(leafJava).name() : stack.get(stack.size() - 1).name();
            if (IDLE_WAITS.contains(leaf)) {
                idle += count;
                idleLeaves.merge(leaf, count, Long::sum);
            }
            boolean marked = stack.get(0).name().equals(TRUNCATED);
            if (marked || (rootJava >= 0 && !isThreadEntry(stack.get(rootJava).name()))) {
                cut += count;
            }
            if (leafJava >= 0) {
                javaSamples += count;
                self.merge(leaf, count, Long::sum);
                if (throughDispatch) {
                    dispatch += count;
                    requestDepths.merge(javaDepth, count, Long::sum);
                    if (javaDepth >= 80) {
                        deep += count;
                    }
                }
            }
        }
        Map.Entry<String, Long> top = self.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
        return new ProfileFigures(samples, javaSamples, percent(idle, samples), percent(cut, samples),
                percent(dispatch, javaSamples), top == null ? "-" : top.getKey(),
                top == null ? 0 : percent(top.getValue(), javaSamples), quantile(requestDepths, dispatch, 0.5),
                quantile(requestDepths, dispatch, 0.9),
                requestDepths.keySet().stream().mapToInt(i -> i).max().orElse(0),
                percent(deep, dispatch), idleLeaves);
    }

    static Frame frame(String token) {
        String name = token;
        Boolean java = null;
        var annotation = ANNOTATION.matcher(name);
        if (annotation.find()) {
            name = name.substring(0, annotation.start());
            java = !annotation.group(1).equals("k");
        }
        if (java == null) {
            java = looksLikeJava(name.replace('/', '.'));
        }
        if (java) {
            name = name.replace('/', '.');
            name = HIDDEN_CLASS_ADDRESS.matcher(name).replaceAll("");
            name = LAMBDA_NUMBER.matcher(name).replaceAll(LAMBDA);
        }
        return new Frame(name, java);
    }

    /** {@code package.Class.method}: identifier parts separated by dots, hidden-class addresses allowed. */
    static boolean looksLikeJava(String name) {
        String n = HIDDEN_CLASS_ADDRESS.matcher(name).replaceAll("");
        if (n.isEmpty() || !Character.isJavaIdentifierStart(n.charAt(0)) || n.endsWith(".so") || n.contains(".so.")) {
            return false;
        }
        int lastDot = -1;
        for (int i = 1; i < n.length(); i++) {
            char c = n.charAt(i);
            if (c == '.') {
                if (n.charAt(i - 1) == '.') {
                    return false;
                }
                lastDot = i;
            } else if (!Character.isJavaIdentifierPart(c) && c != '<' && c != '>') {
                return false;
            }
        }
        if (lastDot < 0 || lastDot == n.length() - 1) {
            return false;
        }
        char methodStart = n.charAt(lastDot + 1);
        return Character.isJavaIdentifierStart(methodStart) || methodStart == '<';
    }

    static boolean isThreadEntry(String javaFrame) {
        return THREAD_ENTRY_METHODS.contains(javaFrame.substring(javaFrame.lastIndexOf('.') + 1));
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    private static int quantile(Map<Integer, Long> histogram, long total, double q) {
        long seen = 0;
        for (int depth : histogram.keySet().stream().sorted().toList()) {
            seen += histogram.get(depth);
            if (seen >= q * total) {
                return depth;
            }
        }
        return 0;
    }

    /** The top idle leaves, for the report: {@code EPoll.wait 12, Unsafe.park 3}. */
    public String idleLeavesSummary() {
        return idleLeaves.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(3)
                .map(e -> e.getKey().substring(e.getKey().lastIndexOf('.', e.getKey().lastIndexOf('.') - 1) + 1)
                        + " " + e.getValue())
                .reduce((a, b) -> a + ", " + b).orElse("-");
    }

    static String pct(double value) {
        return String.format(Locale.ROOT, "%.1f%%", value);
    }
}
