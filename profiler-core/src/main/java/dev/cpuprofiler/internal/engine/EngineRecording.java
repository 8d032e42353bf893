package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.Profile;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A recording in progress. Safe to use from several threads (e.g. a session thread and a shutdown hook). */
public interface EngineRecording {

    /** The id of the engine that records. */
    String engineId();

    /**
     * Samples seen so far, for progress display. JFR engines count as their stream delivers, about once a second, so
     * this trails the truth by up to a second; after {@link #stop()} it is the final count.
     */
    long samplesSoFar();

    /**
     * A reason to end the recording now and keep what it has, or empty: the disk it writes to is down to the
     * free-space floor. Cheap enough to ask once a second.
     */
    default Optional<String> stopReason() {
        return Optional.empty();
    }

    /**
     * Stops sampling and delivers every remaining sample to the sink before returning. Idempotent: later calls return
     * the first result (or throw the first failure) without delivering anything again.
     *
     * @throws FailureException if the recorded data could not be read back
     */
    Result stop();

    /**
     * Stops sampling without delivering anything and deletes the engine's files; for shutdown. A no-op after
     * {@link #stop()} (the result's file then belongs to the caller). Idempotent.
     */
    void cancel();

    /**
     * What a finished recording delivered.
     *
     * @param engineId the engine that recorded, e.g. {@code jfr-execution}
     * @param engineDetail the mechanism underneath: {@code perf_events} or {@code ctimer} for async-profiler, the JFR
     *     events for the JFR engines
     * @param samples nominal samples delivered to the sink (the sum of their weights)
     * @param lostSamples samples the engine took but could not deliver (failed stack walks, full buffers)
     * @param jfrFile the recording file kept in the work directory, owned by the caller from now on; {@code null} if
     *     none
     * @param notes things a reader of the profile should know (truncated stacks, missing JVM flags, ...)
     * @param fallbacks engines tried before this one, each with why it could not record
     */
    record Result(String engineId, String engineDetail, long samples, long lostSamples, Path jfrFile,
            List<String> notes, List<Profile.EngineFallback> fallbacks) {

        public Result {
            Objects.requireNonNull(engineId, "engineId");
            Objects.requireNonNull(engineDetail, "engineDetail");
            notes = List.copyOf(notes);
            fallbacks = List.copyOf(fallbacks);
        }

        /** This result with the given fallbacks. */
        public Result withFallbacks(List<Profile.EngineFallback> newFallbacks) {
            return new Result(engineId, engineDetail, samples, lostSamples, jfrFile, notes, newFallbacks);
        }
    }

    /** A recording that ran could not be read back or stopped cleanly. */
    final class FailureException extends RuntimeException {

        public FailureException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
