package dev.cpuprofiler.internal.cpu;

import java.util.Optional;

/**
 * The process's cgroups that matter for CPU: the v1 {@code cpu} controller (quota), the v1 {@code cpuacct}
 * controller (usage) and the v2 hierarchy. Each is {@code null} when the process has none or it is not mounted.
 * On a hybrid host all three exist; v1 wins because that is where the cpu controller lives.
 */
record CgroupLayout(CgroupDirectory v1Cpu, CgroupDirectory v1Cpuacct, CgroupDirectory v2) {

    /** Where the cumulative CPU-usage counter lives: {@code cpuacct.usage} (v1) or {@code cpu.stat} (v2). */
    public Optional<CgroupDirectory> usageDirectory() {
        return Optional.ofNullable(v1Cpuacct != null ? v1Cpuacct : v2);
    }

    /** Where the CPU quota is set: {@code cpu.cfs_quota_us} (v1) or {@code cpu.max} (v2). */
    public Optional<CgroupDirectory> quotaDirectory() {
        return Optional.ofNullable(v1Cpu != null ? v1Cpu : v2);
    }
}
