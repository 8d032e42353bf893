package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.FrameKind;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * Turns a JFR stack trace (leaf first) into root-first {@link Frame}s. Reads the JDK's own events and async-profiler's
 * JFR output alike: both name the frame type ({@code Interpreted}, {@code JIT compiled}, {@code Inlined},
 * {@code Native}, and from async-profiler also {@code C1 compiled}, {@code C++}, {@code Kernel}). Public so that
 * every reader of JFR stacks (the engines, look-back) names frames the same way and their trees merge.
 */
public final class JfrStackConverter {

    /** Root of a stack whose outer frames were cut off, so a cut stack never poses as a complete one. */
    static final Frame TRUNCATED = new Frame("[truncated]", FrameKind.UNKNOWN);
    /** The whole stack of a sample that has none (e.g. a thread in VM code with no Java frames). */
    static final Frame NO_STACK = new Frame("[unknown]", FrameKind.UNKNOWN);

    // Hidden classes (lambdas, proxies) carry an address that differs per run: /0x... (JDK) or .0x... (async-profiler).
    private static final Pattern HIDDEN_CLASS_SUFFIX = Pattern.compile("[/.]0x[0-9a-fA-F]+$");

    private final int maxStackDepth;
    private final boolean nativeSymbolsOnly;

    /**
     * @param maxStackDepth frames kept, leaf-most first
     * @param nativeSymbolsOnly name native and kernel frames by symbol alone: async-profiler puts the library name
     *     ({@code libjvm.so}) where the JDK puts a class name
     */
    public JfrStackConverter(int maxStackDepth, boolean nativeSymbolsOnly) {
        this.maxStackDepth = maxStackDepth;
        this.nativeSymbolsOnly = nativeSymbolsOnly;
    }

    /**
     * The stack root-first, at most {@code maxStackDepth} frames; whether it was cut is told by a {@link #TRUNCATED}
     * first frame. A cut stack keeps its {@code maxStackDepth - 1} leaf-most frames after the marker, so that it fits
     * a tree with the same limit whole (the tree would otherwise cut it a second time, in the middle).
     */
    public List<Frame> rootFirst(RecordedStackTrace trace) {
        if (trace == null || trace.getFrames().isEmpty()) {
            return List.of(NO_STACK);
        }
        List<RecordedFrame> leafFirst = trace.getFrames();
        boolean cut = cutReason(trace) != Cut.NONE;
        int kept = kept(leafFirst.size(), cut, maxStackDepth);
        List<Frame> frames = new ArrayList<>(kept + 1);
        if (cut) {
            frames.add(TRUNCATED);
        }
        for (int i = kept - 1; i >= 0; i--) {
            frames.add(toFrame(leafFirst.get(i)));
        }
        return frames;
    }

    /** Why a stack lacks its outer frames, if it does. */
    enum Cut {
        /** Whole. */
        NONE,
        /** Deeper than kept: by max-stack-depth, or by JFR's own stack depth (which marks the stack truncated). */
        DEPTH,
        /** async-profiler's walk stopped before the thread's first frame and said so with a {@code break_*} frame. */
        WALK_STOPPED
    }

    /** Whether {@link #rootFirst} cuts this stack, and why. */
    Cut cutReason(RecordedStackTrace trace) {
        if (trace == null || trace.getFrames().isEmpty()) {
            return Cut.NONE;
        }
        List<RecordedFrame> leafFirst = trace.getFrames();
        if (trace.isTruncated() || leafFirst.size() > maxStackDepth) {
            return Cut.DEPTH;
        }
        return nativeSymbolsOnly && isWalkStop(leafFirst.get(leafFirst.size() - 1)) ? Cut.WALK_STOPPED : Cut.NONE;
    }

    /** Frames kept, leaf-most first, of a stack of {@code frames} frames: all unless cut, else room for the marker. */
    static int kept(int frames, boolean cut, int maxStackDepth) {
        return cut ? Math.min(frames, Math.max(1, maxStackDepth - 1)) : frames;
    }

    /**
     * async-profiler ends a stack it could not walk to the thread's first frame with a native frame without a
     * library, named {@code break_*}: {@code break_stack_range} (it walks at most 1 MB of a thread's stack, however
     * deep {@code jstackdepth} allows), {@code break_interpreted}, {@code break_compiled} and the like. Its outer
     * frames are missing just as if the stack had been cut.
     */
    static boolean isWalkStop(RecordedFrame frame) {
        RecordedMethod method = frame.getMethod();
        return method != null && isWalkStop(method.getName(), kindOf(frame.getType()),
                method.getType() == null ? null : method.getType().getName());
    }

    static boolean isWalkStop(String methodName, FrameKind kind, String className) {
        return kind == FrameKind.NATIVE && methodName != null && methodName.startsWith("break_")
                && (className == null || className.isEmpty());
    }

    Frame toFrame(RecordedFrame frame) {
        FrameKind kind = kindOf(frame.getType());
        RecordedMethod method = frame.getMethod();
        if (method == null) {
            return new Frame("[unknown]", kind);
        }
        String methodName = method.getName() == null ? "[unknown]" : method.getName();
        boolean symbolOnly = nativeSymbolsOnly && (kind == FrameKind.NATIVE || kind == FrameKind.KERNEL);
        if (symbolOnly || method.getType() == null || method.getType().getName() == null) {
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
