package dev.cpuprofiler;

/** Why a profile was recorded. */
public enum SessionTrigger {
    /** The CPU baseline exceeded the threshold. */
    CPU,
    /** Someone asked for it (the endpoint's POST, or code). */
    MANUAL
}
