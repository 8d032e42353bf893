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
    REFERENCE;

    /** Whether the profiler started it by itself on a trigger (CPU or saturation): such a profile starts the cooldown. */
    public boolean automatic() {
        return this == CPU || this == SATURATION;
    }
}
