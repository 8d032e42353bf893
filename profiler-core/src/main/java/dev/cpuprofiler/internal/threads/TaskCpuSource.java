package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;

import java.io.IOException;

/** Where per-thread CPU snapshots come from: {@code /proc} (every thread) or the JVM (Java threads only). */
interface TaskCpuSource {

    /** {@link CpuBreakdown#SOURCE_PROC} or {@link CpuBreakdown#SOURCE_JVM}. */
    String id();

    /** @throws IOException when this source cannot list threads at all (not for one thread that vanished) */
    TaskCpuSnapshot snapshot() throws IOException;
}
