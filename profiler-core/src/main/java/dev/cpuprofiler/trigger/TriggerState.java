package dev.cpuprofiler.trigger;

/** Where the CPU trigger stands. */
public enum TriggerState {
    /** The CPU trigger is off ({@code profiler.cpu.enabled=false}); on-demand profiles still work. */
    DISABLED,
    /** Watching the baseline. */
    MONITORING,
    /** A session is recording. */
    PROFILING,
    /** Quiet after a CPU-triggered session, until its end + cooldown. */
    COOLDOWN
}
