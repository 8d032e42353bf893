package dev.cpuprofiler.internal.cpu;

import java.io.IOException;

/** A cumulative CPU-time counter: a cgroup's or the process's. */
public interface CpuUsageSource extends AutoCloseable {

    /**
     * The CPU time consumed so far, in nanoseconds. Normally only grows; it may jump back when the
     * cgroup is recreated (container restart), which callers must tolerate. Must not allocate on the
     * steady path: it is read every second for the life of the application.
     *
     * @throws IOException when the counter cannot be read (the caller logs and retries next tick)
     */
    long cpuTimeNanos() throws IOException;

    CpuSourceKind kind();

    /** Where the counter lives, for logs and the endpoint: a file path, or the MXBean. */
    String description();

    @Override
    default void close() {
    }
}
