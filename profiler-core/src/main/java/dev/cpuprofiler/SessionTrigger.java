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
    SATURATION;

    /** Whether the profiler started it by itself (CPU or saturation): such a profile starts the cooldown. */
    public boolean automatic() {
        return this != MANUAL;
    }
}
