package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.Profile;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a finished recording delivered.
 *
 * @param engineId the engine that recorded, e.g. {@code jfr-execution}
 * @param engineDetail the mechanism underneath: {@code perf_events} or {@code ctimer} for async-profiler, the JFR
 *     events for the JFR engines
 * @param samples nominal samples delivered to the sink (the sum of their weights)
 * @param lostSamples samples the engine took but could not deliver (failed stack walks, full buffers)
 * @param jfrFile the recording file kept in the work directory, owned by the caller from now on; {@code null} if none
 * @param notes things a reader of the profile should know (truncated stacks, missing JVM flags, ...)
 * @param fallbacks engines tried before this one, each with why it could not record
 */
public record RecordingResult(String engineId, String engineDetail, long samples, long lostSamples, Path jfrFile,
        List<String> notes, List<Profile.EngineFallback> fallbacks) {

    public RecordingResult {
        Objects.requireNonNull(engineId, "engineId");
        Objects.requireNonNull(engineDetail, "engineDetail");
        notes = List.copyOf(notes);
        fallbacks = List.copyOf(fallbacks);
    }

    /** This result with the given fallbacks. */
    public RecordingResult withFallbacks(List<Profile.EngineFallback> newFallbacks) {
        return new RecordingResult(engineId, engineDetail, samples, lostSamples, jfrFile, notes, newFallbacks);
    }
}
