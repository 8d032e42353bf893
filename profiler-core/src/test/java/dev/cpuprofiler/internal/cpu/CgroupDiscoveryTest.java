package dev.cpuprofiler.internal.cpu;

import dev.cpuprofiler.internal.cpu.CgroupDirectory.Version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupDiscoveryTest {

    @TempDir
    Path root;

    @Test
    void hybridHostWithControllersMountedApartPrefersV1() throws IOException {
        FakeFs.hybridHostRoot(root);

        CgroupDiscovery.Layout layout = new CgroupDiscovery(root).discover();

        assertThat(layout.v1Cpu()).isEqualTo(
                new CgroupDirectory(Version.V1, "/", "/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu"));
        assertThat(layout.v1Cpuacct()).isEqualTo(
                new CgroupDirectory(Version.V1, "/", "/sys/fs/cgroup/cpuacct", "/sys/fs/cgroup/cpuacct"));
        assertThat(layout.v2().path()).isEqualTo("/sys/fs/cgroup/unified");
        assertThat(layout.usageDirectory()).contains(layout.v1Cpuacct());
        assertThat(layout.quotaDirectory()).contains(layout.v1Cpu());
    }

    @Test
    void v1ControllersMountedApartWithNestedPaths() throws IOException {
        new FakeFs(root)
                .procCgroup("2:cpuacct:/kubepods/burstable/pod1/abc\n1:cpu:/kubepods/burstable/pod1/abc\n0::/\n")
                .mountinfo(FakeFs.HYBRID_APART_MOUNTINFO);

        CgroupDiscovery.Layout layout = new CgroupDiscovery(root).discover();

        assertThat(layout.v1Cpu().path()).isEqualTo("/sys/fs/cgroup/cpu/kubepods/burstable/pod1/abc");
        assertThat(layout.v1Cpuacct().path()).isEqualTo("/sys/fs/cgroup/cpuacct/kubepods/burstable/pod1/abc");
        assertThat(layout.v1Cpuacct().cgroupPath()).isEqualTo("/kubepods/burstable/pod1/abc");
    }

    @Test
    void v1ControllersMountedTogether() throws IOException {
        new FakeFs(root)
                .procCgroup("12:cpuset:/\n4:cpu,cpuacct:/kubepods/burstable/pod1/abc\n1:name=systemd:/user.slice\n"
                        + "0::/user.slice\n")
                .mountinfo(FakeFs.V1_TOGETHER_MOUNTINFO);

        CgroupDiscovery.Layout layout = new CgroupDiscovery(root).discover();

        String dir = "/sys/fs/cgroup/cpu,cpuacct/kubepods/burstable/pod1/abc";
        assertThat(layout.v1Cpu().path()).isEqualTo(dir);
        assertThat(layout.v1Cpuacct().path()).isEqualTo(dir);
        assertThat(layout.v2().path()).isEqualTo("/sys/fs/cgroup/unified/user.slice");
        assertThat(layout.usageDirectory().orElseThrow().version()).isEqualTo(Version.V1);
    }

    @Test
    void pureV2() throws IOException {
        new FakeFs(root).procCgroup("0::/system.slice/app.service\n").mountinfo(FakeFs.V2_MOUNTINFO);

        CgroupDiscovery.Layout layout = new CgroupDiscovery(root).discover();

        assertThat(layout.v1Cpu()).isNull();
        assertThat(layout.v1Cpuacct()).isNull();
        assertThat(layout.v2()).isEqualTo(new CgroupDirectory(Version.V2, "/system.slice/app.service",
                "/sys/fs/cgroup", "/sys/fs/cgroup/system.slice/app.service"));
        assertThat(layout.usageDirectory()).contains(layout.v2());
    }

    @Test
    void cgroupNamespaceShowsTheContainersCgroupAsRoot() throws IOException {
        // A container with its own cgroup namespace: the process is at "/" and the mount shows that same root.
        new FakeFs(root).procCgroup("0::/\n")
                .mountinfo("600 500 0:40 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw\n");

        CgroupDiscovery.Layout layout = new CgroupDiscovery(root).discover();

        assertThat(layout.v2().path()).isEqualTo("/sys/fs/cgroup");
        assertThat(layout.v2().isNamespaceRoot()).isTrue();
    }

    @Test
    void mountRootIsTheContainersOwnCgroup() throws IOException {
        // Docker on v1 without a cgroup namespace bind-mounts the container's cgroup as the hierarchy root.
        String mountinfo = "700 690 0:31 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct\n";
        new FakeFs(root).procCgroup("4:cpu,cpuacct:/docker/abc\n").mountinfo(mountinfo);
        assertThat(new CgroupDiscovery(root).discover().v1Cpuacct().path()).isEqualTo("/sys/fs/cgroup/cpu,cpuacct");

        new FakeFs(root).procCgroup("4:cpu,cpuacct:/docker/abc/worker\n");
        assertThat(new CgroupDiscovery(root).discover().v1Cpuacct().path())
                .isEqualTo("/sys/fs/cgroup/cpu,cpuacct/worker");
    }

    @Test
    void cgroupOutsideTheMountsRootFallsBackToTheMountPoint() throws IOException {
        // The process's cgroup is not below what is mounted (a namespace boundary): the mount point is all we see.
        new FakeFs(root).procCgroup("0::/../sibling/app\n")
                .mountinfo("600 500 0:40 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");

        assertThat(new CgroupDiscovery(root).discover().v2().path()).isEqualTo("/sys/fs/cgroup");
    }

    @Test
    void prefersTheMountWhoseRootHoldsTheCgroup() throws IOException {
        new FakeFs(root).procCgroup("0::/app/web\n").mountinfo(""
                + "600 500 0:40 /other /mnt/other rw - cgroup2 cgroup2 rw\n"
                + "601 500 0:40 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
                + "602 500 0:40 /app /mnt/app rw - cgroup2 cgroup2 rw\n");

        assertThat(new CgroupDiscovery(root).discover().v2().path()).isEqualTo("/mnt/app/web");
    }

    @Test
    void escapedMountPointIsDecoded() throws IOException {
        new FakeFs(root).procCgroup("3:cpuacct:/job\n1:cpu:/job\n")
                .mountinfo("32 31 0:29 / /cg\\040v1/cpu rw - cgroup cgroup rw,cpu\n"
                        + "33 31 0:30 / /cg\\040v1/cpuacct rw - cgroup cgroup rw,cpuacct\n")
                .v1Cpuacct("/cg v1/cpuacct/job", 777);

        CgroupDiscovery.Layout layout = new CgroupDiscovery(root).discover();

        assertThat(layout.v1Cpuacct().path()).isEqualTo("/cg v1/cpuacct/job");
        try (CgroupCpuSource source = CgroupCpuSource.v1(
                CgroupDirectory.resolve(root, layout.v1Cpuacct().path()))) {
            assertThat(source.cpuTimeNanos()).isEqualTo(777);
        }
    }

    @Test
    void controllerListedButNotMountedIsAbsent() throws IOException {
        new FakeFs(root).procCgroup("2:cpuacct:/a\n1:cpu:/a\n").mountinfo(FakeFs.V2_MOUNTINFO);

        CgroupDiscovery.Layout layout = new CgroupDiscovery(root).discover();

        assertThat(layout.v1Cpuacct()).isNull();
        assertThat(layout.usageDirectory()).isEmpty();
    }

    @Test
    void missingProcFilesAreReported() {
        assertThatThrownBy(() -> new CgroupDiscovery(root).discover())
                .isInstanceOf(IOException.class).hasMessageContaining("/proc/self/cgroup");

        new FakeFs(root).procCgroup("0::/\n");
        assertThatThrownBy(() -> new CgroupDiscovery(root).discover())
                .isInstanceOf(IOException.class).hasMessageContaining("/proc/self/mountinfo");
    }

    @Test
    void garbageInProcCgroupIsReported() {
        new FakeFs(root).procCgroup("this is not a cgroup file\n").mountinfo(FakeFs.V2_MOUNTINFO);

        assertThatThrownBy(() -> new CgroupDiscovery(root).discover())
                .isInstanceOf(IOException.class).hasMessageContaining("cannot parse");
    }

    @Test
    void ancestorsStopAtTheMountPoint() {
        CgroupDirectory dir = new CgroupDirectory(Version.V2, "/a/b", "/sys/fs/cgroup", "/sys/fs/cgroup/a/b");

        assertThat(dir.selfAndAncestors()).containsExactly("/sys/fs/cgroup/a/b", "/sys/fs/cgroup/a", "/sys/fs/cgroup");
    }

    @Test
    void thisMachinesRealCgroupIsFoundInV1() throws IOException {
        String procCgroup = Files.exists(Path.of("/proc/self/cgroup")) ? Files.readString(Path.of("/proc/self/cgroup")) : "";
        assumeTrue(procCgroup.contains(":cpuacct:") || procCgroup.contains(",cpuacct:"),
                "this machine has no cgroup v1 cpuacct hierarchy; /proc/self/cgroup is: " + procCgroup);

        CgroupDiscovery.Layout layout = new CgroupDiscovery(Path.of("/")).discover();

        CgroupDirectory usage = layout.usageDirectory().orElseThrow();
        assertThat(usage.version()).isEqualTo(Version.V1);
        assertThat(usage).isSameAs(layout.v1Cpuacct());
        assertThat(Path.of(usage.path(), "cpuacct.usage")).isRegularFile();
        assertThat(layout.v1Cpu()).isNotNull();
        assertThat(Path.of(layout.v1Cpu().path(), "cpu.cfs_quota_us")).isRegularFile();
    }
}
