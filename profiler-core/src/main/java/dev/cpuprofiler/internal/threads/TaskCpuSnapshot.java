package dev.cpuprofiler.internal.threads;

import java.util.Map;
import java.util.Objects;

/**
 * Every thread's cumulative CPU time at one moment, keyed by thread id (the kernel's tid for {@code /proc}, the JVM's
 * id otherwise).
 *
 * @param tasks tid → name and CPU time
 * @param malformed threads skipped because a file could not be parsed
 */
record TaskCpuSnapshot(Map<Long, TaskCpu> tasks, int malformed) {

    TaskCpuSnapshot {
        tasks = Map.copyOf(tasks);
    }

    /** @param name the thread's name ({@code comm} or Java name); @param cpuNanos its CPU time so far */
    record TaskCpu(String name, long cpuNanos) {

        TaskCpu {
            Objects.requireNonNull(name, "name");
        }
    }
}
