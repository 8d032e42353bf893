package dev.cpuprofiler;

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
public record CpuBreakdown(Duration processCpuTime, String source, List<Share> groups) {

    public static final String SOURCE_PROC = "proc";
    public static final String SOURCE_JVM = "jvm";

    public CpuBreakdown {
        Objects.requireNonNull(processCpuTime, "processCpuTime");
        Objects.requireNonNull(source, "source");
        groups = List.copyOf(groups);
    }

    /** The group's share, if shown. */
    public Optional<Share> group(Group group) {
        for (Share g : groups) {
            if (g.group() == group) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }

    /** The group's % of the process's CPU time, 0..100; 0 for a group not shown. */
    public double percentOf(Group group) {
        return group(group).map(Share::percent).orElse(0.0);
    }

    /** The group's share of the process's CPU time, 0..1 (for a gauge); 0 for a group not shown. */
    public double ratio(Group group) {
        return percentOf(group) / 100.0;
    }

    /** The group's CPU time; zero for a group not shown. */
    public Duration cpuTimeOf(Group group) {
        return group(group).map(Share::cpuTime).orElse(Duration.ZERO);
    }

    /**
     * One group's share of a {@link CpuBreakdown}.
     *
     * @param group which threads: application, gc, jit, profiler, jvm-other or unattributed
     * @param cpuTime the CPU time its threads used during the session
     * @param percent {@code cpuTime} as % of the process's CPU time, 0..100
     */
    public record Share(Group group, Duration cpuTime, double percent) {

        public Share {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(cpuTime, "cpuTime");
        }
    }

    /**
     * Where a process's CPU time went, by the kind of thread that used it. {@link #id()} is the name used in JSON and
     * in {@link CpuBreakdown}.
     */
    public enum Group {
        /** Everything not recognised as the JVM's or a profiler's: the service's own threads, its libraries', main. */
        APPLICATION("application"),
        /** The garbage collector's worker and concurrent threads (G1, Parallel, ZGC, Shenandoah). */
        GC("gc"),
        /** The JIT compilers' threads (C1, C2, JVMCI/Graal) and, up to JDK 19, the code cache sweeper. */
        JIT("jit"),
        /** This profiler's threads, JFR's and async-profiler's timer thread. */
        PROFILER("profiler"),
        /** The JVM's other housekeeping threads: VM Thread, Service Thread, Reference Handler, Finalizer, ... */
        JVM_OTHER("jvm-other"),
        /** CPU time the process used that no listed thread accounts for: threads that ended during the session. */
        UNATTRIBUTED("unattributed");

        private final String id;

        Group(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }
}
