package dev.cpuprofiler.internal.cpu;

/**
 * A CFS bandwidth limit: the group may run {@code quotaMicros} of CPU time every {@code periodMicros}.
 *
 * @param version where it was read
 * @param quotaMicros positive quota
 * @param periodMicros positive period
 * @param directory the cgroup directory that sets it (the process's own or an ancestor), as the process sees it
 */
record CpuQuota(CgroupVersion version, long quotaMicros, long periodMicros, String directory) {

    public CpuQuota {
        if (quotaMicros <= 0 || periodMicros <= 0) {
            throw new IllegalArgumentException("quota and period must be positive: " + quotaMicros + "/" + periodMicros);
        }
    }

    /** Kept fractional: 150000/100000 is 1.5 CPUs, not 2. */
    public double cpus() {
        return (double) quotaMicros / periodMicros;
    }

    /** e.g. {@code cgroup v2 quota 150000/100000 at /sys/fs/cgroup/app}. */
    public String describe() {
        return version.label() + " quota " + quotaMicros + "/" + periodMicros + " at " + directory;
    }
}
