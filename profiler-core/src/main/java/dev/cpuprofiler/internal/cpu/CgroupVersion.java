package dev.cpuprofiler.internal.cpu;

/** The two cgroup interfaces the kernel offers; their file names and units differ. */
enum CgroupVersion {
    V1("cgroup v1"),
    V2("cgroup v2");

    private final String label;

    CgroupVersion(String label) {
        this.label = label;
    }

    /** {@code cgroup v1} or {@code cgroup v2}, as used in log lines and origins. */
    public String label() {
        return label;
    }
}
