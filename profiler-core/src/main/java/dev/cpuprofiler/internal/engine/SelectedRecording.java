package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.Profile;

import java.util.List;
import java.util.Optional;

/**
 * The recording an {@link EngineSelector} started: the engine's own recording plus the engines passed over on the
 * way, and the hold on the {@link EngineLock}, released when the recording stops or is cancelled.
 */
public final class SelectedRecording implements EngineRecording {

    private final EngineRecording recording;
    private final List<Profile.EngineFallback> fallbacks;
    private final EngineLock.Lease lease;
    private final boolean seesVirtualThreads;

    SelectedRecording(EngineRecording recording, List<Profile.EngineFallback> fallbacks, EngineLock.Lease lease,
            boolean seesVirtualThreads) {
        this.recording = recording;
        this.fallbacks = List.copyOf(fallbacks);
        this.lease = lease;
        this.seesVirtualThreads = seesVirtualThreads;
    }

    /** Whether the engine's samples of a virtual thread name it ({@link ProfilingEngine#seesVirtualThreads()}). */
    public boolean seesVirtualThreads() {
        return seesVirtualThreads;
    }

    @Override
    public String engineId() {
        return recording.engineId();
    }

    /** The engines {@code auto} tried before this one, with their reasons; empty if the first one started. */
    public List<Profile.EngineFallback> fallbacks() {
        return fallbacks;
    }

    @Override
    public long samplesSoFar() {
        return recording.samplesSoFar();
    }

    @Override
    public Optional<String> stopReason() {
        return recording.stopReason();
    }

    /** The engine's result, with {@link EngineRecording.Result#fallbacks()} filled in. */
    @Override
    public EngineRecording.Result stop() {
        try {
            return recording.stop().withFallbacks(fallbacks);
        } finally {
            lease.release();
        }
    }

    @Override
    public void cancel() {
        try {
            recording.cancel();
        } finally {
            lease.release();
        }
    }
}
