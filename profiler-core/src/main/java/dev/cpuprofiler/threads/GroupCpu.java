package dev.cpuprofiler.threads;

import java.time.Duration;
import java.util.Objects;

/**
 * One group's share of a {@link CpuBreakdown}.
 *
 * @param group the {@link CpuGroup#id()}: application, gc, jit, profiler, jvm-other or unattributed
 * @param cpuTime the CPU time its threads used during the session
 * @param percent {@code cpuTime} as % of the process's CPU time, 0..100
 */
public record GroupCpu(String group, Duration cpuTime, double percent) {

    public GroupCpu {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(cpuTime, "cpuTime");
    }
}
