package dev.cpuprofiler;

/** Where CPU usage is read from ({@code profiler.cpu.source}). */
public enum CpuSourceMode {
    /** The container's cgroup when the process has one of its own with readable counters, else the process. */
    AUTO,
    /** The process's cgroup (v2 or v1); falls back to the process's CPU time, with a log line, if none is readable. */
    CGROUP,
    /** The process's own CPU time. */
    PROCESS
}
