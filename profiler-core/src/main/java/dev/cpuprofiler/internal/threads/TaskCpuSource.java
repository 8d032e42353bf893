package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;

/** Where per-thread CPU snapshots come from: {@code /proc} (every thread) or the JVM (Java threads only). */
interface TaskCpuSource {

    /** {@link CpuBreakdown#SOURCE_PROC} or {@link CpuBreakdown#SOURCE_JVM}. */
    String id();

    /** @throws IOException when this source cannot list threads at all (not for one thread that vanished) */
    Snapshot snapshot() throws IOException;

    /**
     * Every thread's cumulative CPU time at one moment, keyed by thread id (the kernel's tid for {@code /proc}, the
     * JVM's id otherwise).
     *
     * @param tasks tid → name and CPU time
     * @param malformed threads skipped because a file could not be parsed
     */
    record Snapshot(Map<Long, TaskCpu> tasks, int malformed) {

        public Snapshot {
            tasks = Map.copyOf(tasks);
        }

        /** @param name the thread's name ({@code comm} or Java name); @param cpuNanos its CPU time so far */
        record TaskCpu(String name, long cpuNanos) {

            public TaskCpu {
                Objects.requireNonNull(name, "name");
            }
        }
    }
}
