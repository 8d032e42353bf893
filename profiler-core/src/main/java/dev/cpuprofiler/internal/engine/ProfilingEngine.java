package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.internal.stack.StackSink;

/**
 * A way to sample call stacks. Starting is also the availability check: an engine that cannot record in this JVM
 * refuses with a reason instead of recording nothing. Start engines through {@link EngineSelector}, which makes sure
 * only one records at a time (two engines that both use SIGPROF break each other).
 */
public interface ProfilingEngine {

    /** {@code jfr-cpu-time}, {@code async-profiler} or {@code jfr-execution}: the name in properties and profiles. */
    String id();

    /**
     * Starts recording.
     *
     * @param settings how to sample
     * @param sink receives the samples, at the latest when the recording stops
     * @return the running recording
     * @throws EngineUnavailableException if this engine cannot record here; the reason says why
     */
    EngineRecording start(EngineSettings settings, StackSink sink) throws EngineUnavailableException;

    /**
     * Whether recording with this engine turns the JVM's {@code DebugNonSafepoints} on (async-profiler's library does,
     * as it loads), so that code compiled from then on attributes inlined methods exactly.
     */
    default boolean turnsOnDebugNonSafepoints() {
        return false;
    }

    /**
     * Whether a sample of a virtual thread names that thread, not its carrier: what joining samples with the requests
     * their threads served needs when requests run on virtual threads.
     */
    default boolean seesVirtualThreads() {
        return true;
    }
}
