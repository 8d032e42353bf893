package dev.cpuprofiler.internal.engine;

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
     * @throws EngineFailureException if the recorded data could not be read back
     */
    RecordingResult stop();

    /**
     * Stops sampling without delivering anything and deletes the engine's files; for shutdown. A no-op after
     * {@link #stop()} (the result's file then belongs to the caller). Idempotent.
     */
    void cancel();
}
