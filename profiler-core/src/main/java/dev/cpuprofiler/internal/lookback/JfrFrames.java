package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.engine.JfrStackConverter;
import dev.cpuprofiler.internal.stack.Frame;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * A JFR stack (leaf first) as root-first {@link Frame}s, named exactly as the session engines name them
 * ({@code package.Class.method}, hidden-class addresses stripped, {@code [truncated]} first when cut), so look-back
 * and session samples of the same code land on the same nodes when merged: it names them with the engines' own
 * {@link JfrStackConverter}.
 *
 * <p>Converted stacks are cached by identity: a stream hands out the same {@link RecordedStackTrace} object for every
 * sample of one stack, so each distinct stack is named once, not once per sample (naming was most of the stream
 * thread's time). Not thread-safe: one per stream.
 */
final class JfrFrames {

    /** Distinct stacks remembered; when full the cache starts over (it only saves work). */
    static final int CACHE_SIZE = 2048;

    private final JfrStackConverter converter;
    private final Map<RecordedStackTrace, List<Frame>> cache = new IdentityHashMap<>();

    JfrFrames(int maxStackDepth) {
        this.converter = new JfrStackConverter(maxStackDepth, false);
    }

    /** The stack root-first, {@code [truncated]} first when it was cut; an immutable list. */
    List<Frame> rootFirst(RecordedStackTrace trace) {
        if (trace == null) {
            return converter.rootFirst(null);
        }
        List<Frame> frames = cache.get(trace);
        if (frames == null) {
            if (cache.size() >= CACHE_SIZE) {
                cache.clear();
            }
            frames = List.copyOf(converter.rootFirst(trace));
            cache.put(trace, frames);
        }
        return frames;
    }
}
