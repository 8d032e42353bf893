package dev.cpuprofiler.core;

/**
 * What the CPU monitor sees now.
 *
 * @param source {@code cgroup-v2}, {@code cgroup-v1} or {@code process}
 * @param cgroupPath the cgroup directory read, or null for the process source
 * @param effectiveCpuCount CPUs the percentages are relative to (fractional quotas kept)
 * @param effectiveCpuOrigin where that number came from
 * @param latestPercent the last sample, null before the second sample
 * @param averagePercent the baseline the policy compares, null before the first rolling interval completes
 * @param thresholdPercent the trigger threshold
 * @param fallbackReason why the process source is used although a cgroup was wanted, or null
 */
public record CpuStatus(String source, String cgroupPath, double effectiveCpuCount, String effectiveCpuOrigin,
        Double latestPercent, Double averagePercent, double thresholdPercent, String fallbackReason) {
}
