package dev.cpuprofiler.internal.cpu;

/**
 * What {@link CpuSourceSelector} chose.
 *
 * @param source the counter to sample; the caller owns it and closes it
 * @param effectiveCpus what a CPU percentage is relative to (the cgroup quota whenever one is discoverable)
 * @param cgroupPath the cgroup directory whose counter is used, as the process sees it (e.g.
 *        {@code /sys/fs/cgroup/cpuacct/kubepods/pod1}); {@code null} when the source is the process
 * @param fallbackReason why the process's CPU time is used although {@code auto} or {@code cgroup} was asked for;
 *        {@code null} when nothing fell back
 */
public record SelectedCpuSource(CpuUsageSource source, EffectiveCpuCount effectiveCpus, String cgroupPath,
        String fallbackReason) {
}
