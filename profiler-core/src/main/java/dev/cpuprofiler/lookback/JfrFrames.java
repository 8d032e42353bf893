package dev.cpuprofiler.lookback;

import dev.cpuprofiler.stack.Frame;
import dev.cpuprofiler.stack.FrameKind;
import dev.cpuprofiler.stack.StackTree;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * A JFR stack (leaf first) as root-first {@link Frame}s, named exactly as the session engines name them
 * ({@code package.Class.method}, hidden-class addresses stripped, {@code [truncated]} first when cut), so look-back
 * and session samples of the same code land on the same nodes when merged. It mirrors the engines' package-private
 * {@code JfrStackConverter} for JDK events; if that class is made public, use it instead.
 *
 * <p>Converted stacks are cached by identity: a stream hands out the same {@link RecordedStackTrace} object for every
 * sample of one stack (measured: 5 objects for ~400 samples of two busy threads), so each distinct stack is named
 * once, not once per sample (naming was two thirds of the stream thread's time). Not thread-safe: one per stream.
 */
final class JfrFrames {

    /** Distinct stacks remembered; when full the cache starts over (it only saves work). */
    static final int CACHE_SIZE = 2048;

    static final Frame TRUNCATED = new Frame(StackTree.TRUNCATED, FrameKind.UNKNOWN);
    static final Frame NO_STACK = new Frame("[unknown]", FrameKind.UNKNOWN);

    private static final Pattern HIDDEN_CLASS_SUFFIX = Pattern.compile("[/.]0x[0-9a-fA-F]+$");

    private final int maxStackDepth;
    private final Map<RecordedStackTrace, List<Frame>> cache = new IdentityHashMap<>();

    JfrFrames(int maxStackDepth) {
        this.maxStackDepth = maxStackDepth;
    }

    /** The stack root-first, {@code [truncated]} first when it was cut; an immutable list. */
    List<Frame> rootFirst(RecordedStackTrace trace) {
        if (trace == null) {
            return List.of(NO_STACK);
        }
        List<Frame> frames = cache.get(trace);
        if (frames == null) {
            if (cache.size() >= CACHE_SIZE) {
                cache.clear();
            }
            frames = convert(trace);
            cache.put(trace, frames);
        }
        return frames;
    }

    private List<Frame> convert(RecordedStackTrace trace) {
        if (trace.getFrames().isEmpty()) {
            return List.of(NO_STACK);
        }
        List<RecordedFrame> leafFirst = trace.getFrames();
        int kept = Math.min(leafFirst.size(), maxStackDepth);
        List<Frame> frames = new ArrayList<>(kept + 1);
        if (trace.isTruncated() || kept < leafFirst.size()) {
            frames.add(TRUNCATED);
        }
        for (int i = kept - 1; i >= 0; i--) {
            frames.add(toFrame(leafFirst.get(i)));
        }
        return List.copyOf(frames);
    }

    static Frame toFrame(RecordedFrame frame) {
        FrameKind kind = kindOf(frame.getType());
        RecordedMethod method = frame.getMethod();
        if (method == null) {
            return new Frame("[unknown]", kind);
        }
        String methodName = method.getName() == null ? "[unknown]" : method.getName();
        if (method.getType() == null || method.getType().getName() == null) {
            return new Frame(methodName, kind);
        }
        String className = HIDDEN_CLASS_SUFFIX.matcher(method.getType().getName()).replaceFirst("");
        return new Frame(className + "." + methodName, kind);
    }

    static FrameKind kindOf(String jfrFrameType) {
        if (jfrFrameType == null) {
            return FrameKind.UNKNOWN;
        }
        return switch (jfrFrameType) {
            case "Interpreted", "JIT compiled", "C1 compiled" -> FrameKind.JAVA;
            case "Inlined" -> FrameKind.INLINED;
            case "Native", "C++" -> FrameKind.NATIVE;
            case "Kernel" -> FrameKind.KERNEL;
            default -> FrameKind.UNKNOWN;
        };
    }
}
