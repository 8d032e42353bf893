package dev.cpuprofiler.internal.cpu;

/**
 * How many CPUs the process can use, kept fractional (a 1.5-CPU quota stays 1.5).
 *
 * @param count a positive number of CPUs
 * @param origin where it came from, e.g. {@code cgroup v2 quota 150000/100000 at /sys/fs/cgroup/app}
 */
public record EffectiveCpuCount(double count, String origin) {

    public EffectiveCpuCount {
        if (!(count > 0) || Double.isInfinite(count)) {
            throw new IllegalArgumentException("effective CPU count must be positive: " + count);
        }
    }
}
