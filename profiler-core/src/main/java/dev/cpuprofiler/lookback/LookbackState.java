package dev.cpuprofiler.lookback;

/** What the look-back is doing. */
public enum LookbackState {
    /** Not configured ({@code profiler.cpu.lookback} is 0). */
    OFF,
    /** Configured, not started yet or closed. */
    STOPPED,
    /** Sampling into its ring. */
    RECORDING,
    /** Stepped aside for a session (or its cooldown); resumes when told, or at the time it was given. */
    STEPPED_ASIDE,
    /** Wants to record but another recording holds the engine lock; retries every second. */
    WAITING,
    /**
     * Its sampler cannot run now (no JFR in this JVM, or the disk under JFR's repository at the free-space floor);
     * tried again every minute and after the next session.
     */
    UNAVAILABLE
}
