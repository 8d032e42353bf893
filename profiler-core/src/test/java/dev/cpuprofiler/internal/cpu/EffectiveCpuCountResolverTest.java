package dev.cpuprofiler.internal.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EffectiveCpuCountResolverTest {

    @TempDir
    Path root;

    private EffectiveCpuCount resolve() throws IOException {
        return new EffectiveCpuCountResolver(root, () -> 64).resolve(new CgroupDiscovery(root).discover());
    }

    private FakeFs v2App(String cpuMax) {
        return new FakeFs(root).procCgroup("0::/app\n").mountinfo(FakeFs.V2_MOUNTINFO).cpusAllowed("0-3")
                .v2Root("/sys/fs/cgroup", 1).v2Group("/sys/fs/cgroup/app", 1, cpuMax);
    }

    @Test
    void v2FractionalQuotaStaysFractional() throws IOException {
        v2App("150000 100000");

        assertThat(resolve()).isEqualTo(
                new EffectiveCpuCount(1.5, "cgroup v2 quota 150000/100000 at /sys/fs/cgroup/app"));
    }

    @Test
    void v2MaxMeansNoQuotaSoTheAffinityCounts() throws IOException {
        v2App("max 100000");

        assertThat(resolve()).isEqualTo(new EffectiveCpuCount(4, "cpu affinity (4 CPUs)"));
    }

    @Test
    void v1QuotaFromTheCpuControllerMountedApart() throws IOException {
        new FakeFs(root).procCgroup("2:cpuacct:/job\n1:cpu:/job\n0::/\n").mountinfo(FakeFs.HYBRID_APART_MOUNTINFO)
                .cpusAllowed("0-1")
                .v1Cpu("/sys/fs/cgroup/cpu", -1, 100000).v1Root("/sys/fs/cgroup/cpu")
                .v1Cpu("/sys/fs/cgroup/cpu/job", 150000, 100000)
                .v1Cpuacct("/sys/fs/cgroup/cpuacct/job", 5);

        assertThat(resolve()).isEqualTo(
                new EffectiveCpuCount(1.5, "cgroup v1 quota 150000/100000 at /sys/fs/cgroup/cpu/job"));
    }

    @Test
    void v1MinusOneMeansNoQuota() throws IOException {
        FakeFs.hybridHostRoot(root);

        assertThat(resolve()).isEqualTo(new EffectiveCpuCount(2, "cpu affinity (2 CPUs)"));
    }

    @Test
    void aQuotaOnlyOnAnAncestorStillLimits() throws IOException {
        String pod = "/sys/fs/cgroup/cpu,cpuacct/kubepods/burstable/pod1";
        new FakeFs(root).procCgroup("4:cpu,cpuacct:/kubepods/burstable/pod1/abc\n")
                .mountinfo(FakeFs.V1_TOGETHER_MOUNTINFO).cpusAllowed("0-15")
                .v1Cpu("/sys/fs/cgroup/cpu,cpuacct", -1, 100000)
                .v1Cpu("/sys/fs/cgroup/cpu,cpuacct/kubepods", -1, 100000)
                .v1Cpu("/sys/fs/cgroup/cpu,cpuacct/kubepods/burstable", -1, 100000)
                .v1Cpu(pod, 250000, 100000)
                .v1Cpu(pod + "/abc", -1, 100000);

        assertThat(resolve()).isEqualTo(new EffectiveCpuCount(2.5, "cgroup v1 quota 250000/100000 at " + pod));
    }

    @Test
    void theTightestOfTheGroupAndItsAncestorsWins() throws IOException {
        new FakeFs(root).procCgroup("0::/kubepods/pod1/abc\n").mountinfo(FakeFs.V2_MOUNTINFO).cpusAllowed("0-15")
                .v2Root("/sys/fs/cgroup", 1)
                .v2Group("/sys/fs/cgroup/kubepods", 1, "max 100000")
                .v2Group("/sys/fs/cgroup/kubepods/pod1", 1, "50000 100000")
                .v2Group("/sys/fs/cgroup/kubepods/pod1/abc", 1, "300000 200000");

        assertThat(resolve()).isEqualTo(
                new EffectiveCpuCount(0.5, "cgroup v2 quota 50000/100000 at /sys/fs/cgroup/kubepods/pod1"));
    }

    @Test
    void neverMoreThanTheCpusTheProcessMayRunOn() throws IOException {
        v2App("800000 100000").cpusAllowed("0,2-3");

        EffectiveCpuCount count = resolve();

        assertThat(count.count()).isEqualTo(3);
        assertThat(count.origin()).isEqualTo(
                "cpu affinity (3 CPUs), tighter than cgroup v2 quota 800000/100000 at /sys/fs/cgroup/app");
    }

    @Test
    void namespacedContainerReadsTheQuotaAtItsMountPoint() throws IOException {
        new FakeFs(root).procCgroup("0::/\n").mountinfo("600 500 0:40 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n")
                .cpusAllowed("0-7").v2Group("/sys/fs/cgroup", 1, "150000 100000");

        assertThat(resolve()).isEqualTo(new EffectiveCpuCount(1.5, "cgroup v2 quota 150000/100000 at /sys/fs/cgroup"));
    }

    @Test
    void garbageQuotaIsIgnoredRatherThanFatal() throws IOException {
        v2App("lots of cpu");

        assertThat(resolve()).isEqualTo(new EffectiveCpuCount(4, "cpu affinity (4 CPUs)"));
    }

    @Test
    void availableProcessorsOnlyWhenTheAffinityIsUnreadable() {
        // No /proc/self/status and no cgroup at all (e.g. not Linux).
        EffectiveCpuCount count = new EffectiveCpuCountResolver(root, () -> 6).resolve(null);

        assertThat(count).isEqualTo(new EffectiveCpuCount(6, "Runtime.availableProcessors() (6)"));
    }

    @Test
    void aKnownQuotaIsUsedEvenWhenTheAffinityIsUnreadable() throws IOException {
        v2App("150000 100000").write("/proc/self/status", "Name:\tjava\n");

        // availableProcessors would say 2 for this quota; the quota itself is what counts.
        assertThat(new EffectiveCpuCountResolver(root, () -> 2).resolve(new CgroupDiscovery(root).discover()).count())
                .isEqualTo(1.5);
    }

    @Test
    void thisMachinesCountComesFromItsQuotaOrItsAffinity() throws IOException {
        String status = Files.readString(Path.of("/proc/self/status"));
        int allowed = EffectiveCpuCountResolver.cpusInList(status.lines()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                .substring("Cpus_allowed_list:".length()));

        EffectiveCpuCount count = new EffectiveCpuCountResolver(Path.of("/"), () -> 1)
                .resolve(new CgroupDiscovery(Path.of("/")).discover());

        // Here (a plain process in the root cgroup, cpu.cfs_quota_us = -1) that is the affinity: 0-1, 2 CPUs.
        assertThat(count.count()).isLessThanOrEqualTo(allowed);
        if (count.origin().startsWith("cpu affinity")) {
            assertThat(count.count()).isEqualTo(allowed);
        } else {
            assertThat(count.origin()).startsWith("cgroup v");
        }
    }
}
