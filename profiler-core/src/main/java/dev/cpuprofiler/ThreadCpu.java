package dev.cpuprofiler;

import java.time.Duration;
import java.util.Objects;

/**
 * One thread's CPU use over a span of time.
 *
 * @param id the JVM thread id
 * @param name the thread's name (as last seen)
 * @param cpuPercent CPU used over the span as % of ONE core, 0..100 (a thread runs on one core at a time)
 * @param cpuTime CPU time used over the span
 * @param label {@link Label#of(double)} of {@code cpuPercent}
 */
public record ThreadCpu(long id, String name, double cpuPercent, Duration cpuTime, Label label) {

    public ThreadCpu {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(cpuTime, "cpuTime");
        Objects.requireNonNull(label, "label");
    }

    /** {@code cpuNanos} used over {@code spanNanos} of wall time, labelled. */
    public static ThreadCpu of(long id, String name, long cpuNanos, long spanNanos) {
        double percent = spanNanos <= 0 ? 0 : Math.min(100.0, Math.max(0.0, cpuNanos * 100.0 / spanNanos));
        return new ThreadCpu(id, name, percent, Duration.ofNanos(Math.max(0, cpuNanos)), Label.of(percent));
    }

    /**
     * What a thread's CPU% (of one core) says about it: {@code CPU_BOUND} at 80% or more (it would go faster only on a
     * faster core or with the work split), {@code MOSTLY_WAITING} under 20% (it mostly waits for locks, I/O or work),
     * {@code MIXED} in between.
     */
    public enum Label {
        CPU_BOUND,
        MIXED,
        MOSTLY_WAITING;

        /** At or above this % of one core a thread is CPU-bound. */
        public static final double CPU_BOUND_PERCENT = 80.0;
        /** Below this % of one core a thread is mostly waiting. */
        public static final double WAITING_BELOW_PERCENT = 20.0;

        public static Label of(double percentOfOneCore) {
            if (percentOfOneCore >= CPU_BOUND_PERCENT) {
                return CPU_BOUND;
            }
            return percentOfOneCore < WAITING_BELOW_PERCENT ? MOSTLY_WAITING : MIXED;
        }
    }
}
