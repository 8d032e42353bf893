package dev.cpuprofiler.internal.cpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds a fake filesystem root holding {@code /proc/self/*} and {@code /sys/fs/cgroup/...} in the kernel's documented
 * formats (Documentation/admin-guide/cgroup-v2.rst, cgroup-v1/cpuacct.rst, scheduler/sched-bwc.rst, proc(5)).
 */
final class FakeFs {

    /** A v2 {@code cpu.stat} of a group with the cpu controller enabled, as a 6.x kernel writes it. */
    static String cpuStatV2(long usageUsec) {
        return "usage_usec " + usageUsec + "\n"
                + "user_usec " + (usageUsec * 3 / 4) + "\n"
                + "system_usec " + (usageUsec - usageUsec * 3 / 4) + "\n"
                + "core_sched.force_idle_usec 0\n"
                + "nr_periods 1200\n"
                + "nr_throttled 37\n"
                + "throttled_usec 412345\n"
                + "nr_bursts 0\n"
                + "burst_usec 0\n";
    }

    /** The root v1 files only the kernel's real root of a hierarchy has. */
    static final String[] V1_ROOT_ONLY = {"release_agent", "cgroup.sane_behavior"};

    /** A plain host on cgroup v1 with cpu and cpuacct mounted apart, plus the v2 hierarchy at unified (like this machine). */
    static final String HYBRID_APART_MOUNTINFO = ""
            + "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
            + "23 27 0:22 / /sys rw,relatime - sysfs sysfs rw\n"
            + "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n"
            + "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
            + "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
            + "33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
            + "34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
            + "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
            + "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
            + "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

    /** A systemd host with v1 cpu and cpuacct co-mounted, as most distributions did before v2. */
    static final String V1_TOGETHER_MOUNTINFO = ""
            + "21 26 0:20 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
            + "22 26 0:4 / /proc rw,nosuid,nodev,noexec,relatime shared:13 - proc proc rw\n"
            + "26 0 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro\n"
            + "28 21 0:24 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:8 - tmpfs tmpfs ro,mode=755\n"
            + "29 28 0:25 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate\n"
            + "30 28 0:26 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:10 - cgroup cgroup rw,xattr,name=systemd\n"
            + "34 28 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,cpu,cpuacct\n"
            + "35 28 0:31 / /sys/fs/cgroup/cpuset rw,nosuid,nodev,noexec,relatime shared:16 - cgroup cgroup rw,cpuset\n";

    /** A pure v2 host (systemd unified). */
    static final String V2_MOUNTINFO = ""
            + "22 29 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
            + "23 29 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:2 - sysfs sysfs rw\n"
            + "29 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw\n"
            + "30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";

    final Path root;

    FakeFs(Path root) {
        this.root = root;
    }

    FakeFs procCgroup(String content) {
        return write("proc/self/cgroup", content);
    }

    FakeFs mountinfo(String content) {
        return write("proc/self/mountinfo", content);
    }

    FakeFs cpusAllowed(String list) {
        return write("proc/self/status", "Name:\tjava\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t4242\n"
                + "Threads:\t31\nCpus_allowed:\tff\nCpus_allowed_list:\t" + list + "\nMems_allowed_list:\t0\n"
                + "voluntary_ctxt_switches:\t150\n");
    }

    /** A v1 cgroup directory with a cpu controller's files. */
    FakeFs v1Cpu(String dir, long quota, long period) {
        write(dir + "/cpu.cfs_quota_us", quota + "\n");
        write(dir + "/cpu.cfs_period_us", period + "\n");
        write(dir + "/cpu.shares", "1024\n");
        write(dir + "/cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
        return write(dir + "/cgroup.procs", "");
    }

    FakeFs v1Cpuacct(String dir, long usageNanos) {
        write(dir + "/cpuacct.usage", usageNanos + "\n");
        write(dir + "/cpuacct.stat", "user 100\nsystem 20\n");
        return write(dir + "/cgroup.procs", "");
    }

    /** Marks a v1 directory as the real root of its hierarchy. */
    FakeFs v1Root(String dir) {
        write(dir + "/release_agent", "\n");
        return write(dir + "/cgroup.sane_behavior", "0\n");
    }

    /** A non-root v2 group with the cpu controller enabled ({@code cpuMax} e.g. {@code max 100000}). */
    FakeFs v2Group(String dir, long usageUsec, String cpuMax) {
        write(dir + "/cgroup.type", "domain\n");
        write(dir + "/cgroup.controllers", "cpuset cpu io memory pids\n");
        write(dir + "/cpu.stat", cpuStatV2(usageUsec));
        if (cpuMax != null) {
            write(dir + "/cpu.max", cpuMax + "\n");
        }
        return write(dir + "/cgroup.procs", "");
    }

    /** The real root of a v2 hierarchy: cpu.stat with the core lines only, no cpu.max, no cgroup.type. */
    FakeFs v2Root(String dir, long usageUsec) {
        write(dir + "/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
        write(dir + "/cpu.stat", "usage_usec " + usageUsec + "\nuser_usec " + usageUsec / 2 + "\nsystem_usec "
                + usageUsec / 2 + "\nnice_usec 0\n");
        return write(dir + "/cgroup.procs", "");
    }

    FakeFs write(String relative, String content) {
        Path file = root.resolve(relative.startsWith("/") ? relative.substring(1) : relative);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    Path path(String absolute) {
        return root.resolve(absolute.substring(1));
    }

    /** This machine's layout: v1 cpu and cpuacct apart, unified v2 without controllers, process in the roots. */
    static FakeFs hybridHostRoot(Path root) {
        return new FakeFs(root)
                .procCgroup("9:name=systemd:/\n4:memory:/process_api/a084\n3:cpuset:/\n2:cpuacct:/\n1:cpu:/\n0::/\n")
                .mountinfo(HYBRID_APART_MOUNTINFO)
                .cpusAllowed("0-1")
                .v1Cpu("/sys/fs/cgroup/cpu", -1, 100000).v1Root("/sys/fs/cgroup/cpu")
                .v1Cpuacct("/sys/fs/cgroup/cpuacct", 213648183245L).v1Root("/sys/fs/cgroup/cpuacct")
                .v2Root("/sys/fs/cgroup/unified", 213523932L);
    }
}
