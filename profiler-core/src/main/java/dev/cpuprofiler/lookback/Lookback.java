package dev.cpuprofiler.lookback;

import java.time.Instant;
import java.util.Optional;

/**
 * A rolling record of recent stack samples, kept while monitoring so a CPU-triggered profile can show the burst that
 * raised the average as well as what follows. It records only while no session does: whoever starts a session calls
 * {@link #stepAside()} first (which also hands over what it holds) and {@link #resume()} or {@link #resumeAt} once
 * the session has ended.
 */
public interface Lookback extends AutoCloseable {

    /** Starts recording (or waiting for the engine lock). Idempotent. */
    void start();

    /**
     * Stops recording, frees the engine lock and hands over the samples of the window, forgetting them (each sample
     * goes into one profile at most). Blocks until the sampler has delivered its last samples (up to JFR's
     * one-second flush interval).
     *
     * @return the window's samples; empty when look-back is off, not started or closed
     */
    Optional<LookbackSnapshot> stepAside();

    /** Records again after a session (retrying every second while another recording holds the engine lock). */
    void resume();

    /**
     * Records again from {@code when} on: after a CPU-triggered session, one window before its cooldown ends, so the
     * window is full when the trigger can fire again and nothing is sampled for hours in between. A time in the past
     * resumes now. A later {@link #stepAside()} cancels it.
     */
    void resumeAt(Instant when);

    LookbackStatus status();

    /** Stops for good and frees the engine lock. Idempotent. */
    @Override
    void close();

    /** Look-back switched off: records nothing, never holds the engine lock. */
    static Lookback off() {
        return LookbackOff.INSTANCE;
    }
}
