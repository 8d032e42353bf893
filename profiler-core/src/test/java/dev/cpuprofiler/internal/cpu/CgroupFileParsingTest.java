package dev.cpuprofiler.internal.cpu;

import static dev.cpuprofiler.internal.cpu.EffectiveCpuCountResolver.cpusInList;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CgroupFileParsingTest {

    @Test
    void mountinfoLineWithOptionalFieldsBeforeTheSeparator() {
        MountInfoEntry e = MountInfoEntry.parse("34 28 0:30 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime "
                + "shared:15 master:3 - cgroup cgroup rw,cpu,cpuacct");

        assertThat(e.root()).isEqualTo("/");
        assertThat(e.mountPoint()).isEqualTo("/sys/fs/cgroup/cpu,cpuacct");
        assertThat(e.fsType()).isEqualTo("cgroup");
        assertThat(e.isCgroupV1With("cpu")).isTrue();
        assertThat(e.isCgroupV1With("cpuacct")).isTrue();
        assertThat(e.isCgroupV1With("cpuset")).isFalse();
    }

    @Test
    void mountinfoLineWithoutOptionalFields() {
        MountInfoEntry e = MountInfoEntry.parse("41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw");

        assertThat(e.isCgroupV2()).isTrue();
        assertThat(e.mountPoint()).isEqualTo("/sys/fs/cgroup/unified");
    }

    @Test
    void cpuControllerIsNotConfusedWithCpusetOrCpuacct() {
        assertThat(MountInfoEntry.parse("34 31 0:31 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset")
                .isCgroupV1With("cpu")).isFalse();
        assertThat(MountInfoEntry.parse("33 31 0:30 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct")
                .isCgroupV1With("cpu")).isFalse();
    }

    @Test
    void mountinfoOctalEscapesAreDecoded() {
        MountInfoEntry e = MountInfoEntry.parse(
                "50 31 0:40 /my\\040group /mnt/cg\\040roups\\011x\\134y rw - cgroup cgroup rw,cpuacct");

        assertThat(e.root()).isEqualTo("/my group");
        assertThat(e.mountPoint()).isEqualTo("/mnt/cg roups\tx\\y");
    }

    @Test
    void malformedMountinfoLineIsRejected() {
        assertThatThrownBy(() -> MountInfoEntry.parse("garbage without separator"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mountinfo");
        assertThatThrownBy(() -> MountInfoEntry.parse("1 2 3:4 / /x rw shared:1 no separator here"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void procCgroupLines() {
        ProcCgroupEntry v2 = ProcCgroupEntry.parse("0::/system.slice/app.service");
        assertThat(v2.isUnified()).isTrue();
        assertThat(v2.path()).isEqualTo("/system.slice/app.service");

        ProcCgroupEntry v1 = ProcCgroupEntry.parse("4:cpu,cpuacct:/kubepods/burstable/pod1/abc");
        assertThat(v1.isUnified()).isFalse();
        assertThat(v1.controllers()).containsExactly("cpu", "cpuacct");
        assertThat(v1.path()).isEqualTo("/kubepods/burstable/pod1/abc");

        assertThat(ProcCgroupEntry.parse("9:name=systemd:/a:b").path()).isEqualTo("/a:b");
    }

    @Test
    void malformedProcCgroupLineIsRejected() {
        assertThatThrownBy(() -> ProcCgroupEntry.parse("not a cgroup line"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("/proc/self/cgroup");
        assertThatThrownBy(() -> ProcCgroupEntry.parse("x:cpu:/"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void cpusAllowedLists() {
        assertThat(cpusInList("0-1")).isEqualTo(2);
        assertThat(cpusInList("0,2-5")).isEqualTo(5);
        assertThat(cpusInList("3")).isEqualTo(1);
        assertThat(cpusInList(" 0-3,8-11\n")).isEqualTo(8);
        assertThatThrownBy(() -> cpusInList("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> cpusInList("0-x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> cpusInList("5-2")).isInstanceOf(IllegalArgumentException.class);
    }
}
