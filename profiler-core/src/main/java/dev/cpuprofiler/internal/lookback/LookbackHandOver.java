package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.LookbackSnapshot;

/**
 * A look-back that has just stopped sampling for a session ({@link Lookback#handOver()}): the engine lock is free,
 * so the session's engine can start at once, while the look-back's last samples are still on their way (JFR
 * delivers them at its next flush, up to a second later).
 */
public interface LookbackHandOver {

    /**
     * The window's samples up to the hand-over, forgetting them (each sample goes into one profile at most). Waits,
     * boundedly, for the last samples to be delivered. Call it once the session's engine records.
     */
    LookbackSnapshot snapshot();
}
