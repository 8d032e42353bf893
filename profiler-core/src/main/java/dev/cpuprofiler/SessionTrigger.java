package dev.cpuprofiler;

/** Why a profile was recorded. */
public enum SessionTrigger {
    /** The CPU baseline exceeded the threshold. */
    CPU,
    /** Someone asked for it (the endpoint's POST, or code). */
    MANUAL,
    /**
     * One application thread stayed at or above the saturation threshold of one core over the saturation window,
     * however low the process's CPU% was.
     */
    SATURATION,
    /**
     * A reference of normal, recorded by itself while the application was calm ({@code profiler.cpu.reference.*}):
     * what later profiles are compared with. It starts no cooldown.
     */
    REFERENCE,
    /**
     * An endpoint's requests turned slow ({@code profiler.latency.*}): the profile says, per endpoint, whether the time
     * went to CPU or to waiting, and on what. It starts the latency trigger's own cooldown.
     */
    LATENCY;

    /**
     * Whether the profiler started it by itself on an incident (CPU, saturation or latency): such a profile starts a
     * cooldown, the latency trigger's its own.
     */
    public boolean automatic() {
        return this == CPU || this == SATURATION || this == LATENCY;
    }
}
