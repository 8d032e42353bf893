package dev.cpuprofiler.threads;

import java.time.Duration;
import java.util.Objects;

/**
 * One thread's CPU use over a span of time.
 *
 * @param id the JVM thread id
 * @param name the thread's name (as last seen)
 * @param cpuPercent CPU used over the span as % of ONE core, 0..100 (a thread runs on one core at a time)
 * @param cpuTime CPU time used over the span
 * @param label {@link ThreadLabel#of(double)} of {@code cpuPercent}
 */
public record ThreadCpu(long id, String name, double cpuPercent, Duration cpuTime, ThreadLabel label) {

    public ThreadCpu {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(cpuTime, "cpuTime");
        Objects.requireNonNull(label, "label");
    }

    /** {@code cpuNanos} used over {@code spanNanos} of wall time, labelled. */
    static ThreadCpu of(long id, String name, long cpuNanos, long spanNanos) {
        double percent = spanNanos <= 0 ? 0 : Math.min(100.0, Math.max(0.0, cpuNanos * 100.0 / spanNanos));
        return new ThreadCpu(id, name, percent, Duration.ofNanos(Math.max(0, cpuNanos)), ThreadLabel.of(percent));
    }
}
