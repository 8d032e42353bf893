package dev.cpuprofiler.lookback;

/** What the look-back is doing. */
public enum LookbackState {
    /** Not configured ({@code profiler.cpu.lookback} is 0, or the CPU trigger is off). */
    OFF,
    /** Configured, not started yet or closed. */
    STOPPED,
    /**
     * Records nothing (no JFR, an empty ring): the CPU is below the arming level, or the start-up grace or a
     * cooldown holds it back. The status says which.
     */
    IDLE,
    /** Armed: sampling into its ring. */
    ARMED,
    /** Stepped aside for a session that records now. */
    STEPPED_ASIDE,
    /** Wants to record but another recording holds the engine lock; retries every second. */
    WAITING,
    /**
     * Its sampler cannot run now (no JFR in this JVM, or the disk under JFR's repository at the free-space floor);
     * tried again every minute and after the next session.
     */
    UNAVAILABLE
}
