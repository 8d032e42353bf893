package dev.cpuprofiler.threads;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the process's CPU time went during a session: the application, the GC, the JIT, profilers, the rest of the
 * JVM.
 *
 * @param processCpuTime the process's CPU time during the session; the groups add up to it
 * @param source {@value #SOURCE_PROC}: every thread, from the kernel's per-thread accounting; {@value #SOURCE_JVM}:
 *        Java threads only, so the GC's and the JIT's time is in unattributed and gc and jit read 0
 * @param groups application, gc, jit, profiler, jvm-other in that order, then unattributed when it is above 0;
 *        percents add up to 100 (all 0 when the process used no CPU)
 */
public record CpuBreakdown(Duration processCpuTime, String source, List<GroupCpu> groups) {

    public static final String SOURCE_PROC = "proc";
    public static final String SOURCE_JVM = "jvm";

    public CpuBreakdown {
        Objects.requireNonNull(processCpuTime, "processCpuTime");
        Objects.requireNonNull(source, "source");
        groups = List.copyOf(groups);
    }

    /** The group with this id ({@link CpuGroup#id()}), if shown. */
    public Optional<GroupCpu> group(String group) {
        for (GroupCpu g : groups) {
            if (g.group().equals(group)) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }

    /** The group's % of the process's CPU time, 0..100; 0 for a group not shown. */
    public double percentOf(String group) {
        return group(group).map(GroupCpu::percent).orElse(0.0);
    }

    /** The group's share of the process's CPU time, 0..1 (for a gauge); 0 for a group not shown. */
    public double ratio(String group) {
        return percentOf(group) / 100.0;
    }

    /** The group's CPU time; zero for a group not shown. */
    public Duration cpuTimeOf(String group) {
        return group(group).map(GroupCpu::cpuTime).orElse(Duration.ZERO);
    }
}
