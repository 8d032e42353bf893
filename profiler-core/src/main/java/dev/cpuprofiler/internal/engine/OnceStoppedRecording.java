package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of an engine's recording into one file, which every engine shares: it is stopped once or cancelled once,
 * whichever comes first, and either way it ends there.
 *
 * <ul>
 *   <li>{@link #stop()} halts the engine, reads the file back into the sink and keeps the result; a second stop
 *       returns that result without delivering anything again.</li>
 *   <li>A failure to halt deletes the file; a failure to read it back keeps it (the caller may want to look at it).
 *       Either failure is kept, and every later stop throws that same exception.</li>
 *   <li>{@link #cancel()} halts the engine without reading and deletes the file; it does nothing once the recording
 *       has stopped or failed (the result's file then belongs to the caller). A stop after a cancel returns an empty
 *       result.</li>
 *   <li>{@link #samplesSoFar()} asks the engine only while it records; then it is the final count, or after a
 *       cancel or a failure the last count seen.</li>
 * </ul>
 *
 * <p>Every step holds this object's lock, so a session thread and a shutdown hook can race safely. An engine says
 * only what is its own: how to count, halt, read back and discard.
 */
abstract class OnceStoppedRecording implements EngineRecording {

    static final String CANCELLED_NOTE = "cancelled before it was stopped";

    private static final Logger log = LoggerFactory.getLogger(OnceStoppedRecording.class);

    private final String engineId;
    private final String detailIfCancelled;
    private final Path file;

    private EngineRecording.Result result;
    private EngineRecording.FailureException failure;
    private boolean cancelled;
    private long lastCount;

    /**
     * @param engineId the engine that records
     * @param detailIfCancelled the result's engine detail when it is cancelled before it is read
     * @param file the recording file: the engine writes it, this deletes it on a cancel or a failure to halt
     */
    OnceStoppedRecording(String engineId, String detailIfCancelled, Path file) {
        this.engineId = engineId;
        this.detailIfCancelled = detailIfCancelled;
        this.file = file;
    }

    @Override
    public final String engineId() {
        return engineId;
    }

    /** The recording file. */
    final Path file() {
        return file;
    }

    @Override
    public final synchronized long samplesSoFar() {
        if (result != null) {
            return result.samples();
        }
        if (failure == null && !cancelled) {
            lastCount = liveCount();
        }
        return lastCount;
    }

    @Override
    public final synchronized EngineRecording.Result stop() {
        if (result != null) {
            return result;
        }
        if (failure != null) {
            throw failure;
        }
        if (cancelled) {
            result = new EngineRecording.Result(engineId, detailIfCancelled, 0, 0, null, List.of(CANCELLED_NOTE),
                    List.of());
            return result;
        }
        try {
            halt();
        } catch (Exception e) {
            failure = new EngineRecording.FailureException(haltFailure(), e);
            RecordingFiles.deleteQuietly(file);
            throw failure;
        }
        try {
            result = readBack();
        } catch (IOException | RuntimeException e) {
            failure = new EngineRecording.FailureException(readFailure(), e);
            throw failure;
        }
        log.debug("{} stopped: {}, {} samples, {} lost, file {}", engineId, result.engineDetail(), result.samples(),
                result.lostSamples(), file);
        return result;
    }

    @Override
    public final synchronized void cancel() {
        if (result != null || failure != null || cancelled) {
            return;
        }
        cancelled = true;
        try {
            discard();
        } finally {
            RecordingFiles.deleteQuietly(file);
        }
        log.debug("{} recording cancelled", engineId);
    }

    /** Samples so far, asked only while the recording runs (under the lock). */
    abstract long liveCount();

    /** Stops sampling and completes the file. */
    abstract void halt() throws Exception;

    /** Why stop failed when {@link #halt()} threw: the failure's message. */
    abstract String haltFailure();

    /** Reads the halted recording's file into the sink. */
    abstract EngineRecording.Result readBack() throws IOException;

    /** Why stop failed when {@link #readBack()} threw: the failure's message. */
    abstract String readFailure();

    /** Stops sampling for a cancel: nothing is read, and the file is deleted afterwards. */
    abstract void discard();
}
