package dev.cpuprofiler.threads;

/**
 * What a thread's CPU% (of one core) says about it: {@code CPU_BOUND} at 80% or more (it would go faster only on a
 * faster core or with the work split), {@code MOSTLY_WAITING} under 20% (it mostly waits for locks, I/O or work),
 * {@code MIXED} in between.
 */
public enum ThreadLabel {
    CPU_BOUND,
    MIXED,
    MOSTLY_WAITING;

    /** At or above this % of one core a thread is CPU-bound. */
    public static final double CPU_BOUND_PERCENT = 80.0;
    /** Below this % of one core a thread is mostly waiting. */
    public static final double WAITING_BELOW_PERCENT = 20.0;

    public static ThreadLabel of(double percentOfOneCore) {
        if (percentOfOneCore >= CPU_BOUND_PERCENT) {
            return CPU_BOUND;
        }
        return percentOfOneCore < WAITING_BELOW_PERCENT ? MOSTLY_WAITING : MIXED;
    }
}
