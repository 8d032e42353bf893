package dev.cpuprofiler.internal.cpu;

import dev.cpuprofiler.CpuSourceMode;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class CpuSourceSelectorTest {

    @TempDir
    Path root;

    private final AtomicLong processCpu = new AtomicLong(5_000_000);
    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger cpuLogger = (Logger) LoggerFactory.getLogger("dev.cpuprofiler.internal.cpu");
    private Level previousLevel;

    @BeforeEach
    void captureLogs() {
        previousLevel = cpuLogger.getLevel();
        cpuLogger.setLevel(Level.DEBUG);
        logs.start();
        cpuLogger.addAppender(logs);
    }

    @AfterEach
    void releaseLogs() {
        cpuLogger.detachAppender(logs);
        cpuLogger.setLevel(previousLevel);
    }

    private CpuSourceSelector.Selected select(CpuSourceMode mode) {
        return select(root, mode);
    }

    private CpuSourceSelector.Selected select(Path fsRoot, CpuSourceMode mode) {
        return new CpuSourceSelector(fsRoot, processCpu::get, () -> 2).select(mode);
    }

    private List<String> debugLines() {
        return logs.list.stream().filter(e -> e.getLevel() == Level.DEBUG).map(ILoggingEvent::getFormattedMessage)
                .toList();
    }

    /** A Kubernetes pod on a v1 host with the controllers apart, like this machine's mounts. */
    private FakeFs v1Pod() {
        String pod = "/kubepods/burstable/pod1/abc";
        return new FakeFs(root).procCgroup("2:cpuacct:" + pod + "\n1:cpu:" + pod + "\n0::/\n")
                .mountinfo(FakeFs.HYBRID_APART_MOUNTINFO).cpusAllowed("0-7")
                .v1Cpu("/sys/fs/cgroup/cpu", -1, 100000).v1Root("/sys/fs/cgroup/cpu")
                .v1Cpu("/sys/fs/cgroup/cpu" + pod, 150000, 100000)
                .v1Cpuacct("/sys/fs/cgroup/cpuacct", 999_999_999_999L).v1Root("/sys/fs/cgroup/cpuacct")
                .v1Cpuacct("/sys/fs/cgroup/cpuacct" + pod, 3_000_000_000L)
                .v2Root("/sys/fs/cgroup/unified", 1);
    }

    @Test
    void autoUsesTheProcessesOwnV1CgroupEvenOnAHybridHost() throws IOException {
        v1Pod();

        CpuSourceSelector.Selected selected = select(CpuSourceMode.AUTO);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.CGROUP_V1);
        assertThat(selected.source().cpuTimeNanos()).isEqualTo(3_000_000_000L);
        assertThat(selected.cgroupPath()).isEqualTo("/sys/fs/cgroup/cpuacct/kubepods/burstable/pod1/abc");
        assertThat(selected.fallbackReason()).isNull();
        assertThat(selected.effectiveCpus()).isEqualTo(new EffectiveCpuCount(1.5,
                "cgroup v1 quota 150000/100000 at /sys/fs/cgroup/cpu/kubepods/burstable/pod1/abc"));
        assertThat(debugLines()).contains(
                "Using cgroup v1 CPU metrics from /sys/fs/cgroup/cpuacct/kubepods/burstable/pod1/abc",
                "Effective CPU count from cgroup v1 quota: 1.5 (cgroup v1 quota 150000/100000 at "
                        + "/sys/fs/cgroup/cpu/kubepods/burstable/pod1/abc)");
        selected.source().close();
    }

    @Test
    void autoUsesTheProcessesOwnV1CgroupMountedTogether() throws IOException {
        String dir = "/sys/fs/cgroup/cpu,cpuacct/docker/abc";
        new FakeFs(root).procCgroup("4:cpu,cpuacct:/docker/abc\n").mountinfo(FakeFs.V1_TOGETHER_MOUNTINFO)
                .cpusAllowed("0-3").v1Cpu(dir, 200000, 100000).v1Cpuacct(dir, 1234);

        CpuSourceSelector.Selected selected = select(CpuSourceMode.AUTO);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.CGROUP_V1);
        assertThat(selected.source().cpuTimeNanos()).isEqualTo(1234);
        assertThat(selected.cgroupPath()).isEqualTo(dir);
        assertThat(selected.effectiveCpus().count()).isEqualTo(2.0);
    }

    @Test
    void autoUsesAV2Cgroup() throws IOException {
        new FakeFs(root).procCgroup("0::/system.slice/app.service\n").mountinfo(FakeFs.V2_MOUNTINFO)
                .cpusAllowed("0-3").v2Root("/sys/fs/cgroup", 1)
                .v2Group("/sys/fs/cgroup/system.slice", 2, "max 100000")
                .v2Group("/sys/fs/cgroup/system.slice/app.service", 4321, "150000 100000");

        CpuSourceSelector.Selected selected = select(CpuSourceMode.AUTO);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.CGROUP_V2);
        assertThat(selected.source().cpuTimeNanos()).isEqualTo(4_321_000L);
        assertThat(selected.cgroupPath()).isEqualTo("/sys/fs/cgroup/system.slice/app.service");
        assertThat(selected.effectiveCpus().count()).isEqualTo(1.5);
        assertThat(debugLines()).contains("Using cgroup v2 CPU metrics from /sys/fs/cgroup/system.slice/app.service");
    }

    @Test
    void autoUsesANamespacedContainersRootBecauseItIsNotTheHosts() throws IOException {
        new FakeFs(root).procCgroup("0::/\n")
                .mountinfo("600 500 0:40 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw\n")
                .cpusAllowed("0-7").v2Group("/sys/fs/cgroup", 777, "150000 100000");

        CpuSourceSelector.Selected selected = select(CpuSourceMode.AUTO);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.CGROUP_V2);
        assertThat(selected.cgroupPath()).isEqualTo("/sys/fs/cgroup");
        assertThat(selected.effectiveCpus().count()).isEqualTo(1.5);
    }

    @Test
    void autoUsesANamespacedV1ContainersRootToo() throws IOException {
        new FakeFs(root).procCgroup("4:cpu,cpuacct:/\n")
                .mountinfo("700 690 0:31 / /sys/fs/cgroup/cpu,cpuacct ro - cgroup cgroup rw,cpu,cpuacct\n")
                .cpusAllowed("0-7").v1Cpu("/sys/fs/cgroup/cpu,cpuacct", 100000, 100000)
                .v1Cpuacct("/sys/fs/cgroup/cpu,cpuacct", 55);

        CpuSourceSelector.Selected selected = select(CpuSourceMode.AUTO);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.CGROUP_V1);
        assertThat(selected.effectiveCpus().count()).isEqualTo(1.0);
    }

    @Test
    void autoMeasuresTheProcessWhenItSitsInTheHostsRootCgroup() throws IOException {
        FakeFs.hybridHostRoot(root);

        CpuSourceSelector.Selected selected = select(CpuSourceMode.AUTO);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.PROCESS);
        assertThat(selected.source().cpuTimeNanos()).isEqualTo(5_000_000);
        assertThat(selected.cgroupPath()).isNull();
        assertThat(selected.fallbackReason()).isEqualTo("the process is in the root of the cgroup v1 hierarchy (/) at "
                + "/sys/fs/cgroup/cpuacct, whose counters are the whole machine's");
        assertThat(selected.effectiveCpus()).isEqualTo(new EffectiveCpuCount(2, "cpu affinity (2 CPUs)"));
        assertThat(debugLines()).contains("No cgroup CPU stats found, falling back to process CPU time: "
                + selected.fallbackReason());
    }

    @Test
    void autoMeasuresTheProcessInAV2HostsRoot() {
        new FakeFs(root).procCgroup("0::/\n").mountinfo(FakeFs.V2_MOUNTINFO).cpusAllowed("0-3")
                .v2Root("/sys/fs/cgroup", 1);

        CpuSourceSelector.Selected selected = select(CpuSourceMode.AUTO);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.PROCESS);
        assertThat(selected.fallbackReason()).contains("root of the cgroup v2 hierarchy (/)");
    }

    @Test
    void cgroupModeUsesEvenTheRootCgroup() throws IOException {
        FakeFs.hybridHostRoot(root);

        CpuSourceSelector.Selected selected = select(CpuSourceMode.CGROUP);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.CGROUP_V1);
        assertThat(selected.source().cpuTimeNanos()).isEqualTo(213648183245L);
        assertThat(selected.cgroupPath()).isEqualTo("/sys/fs/cgroup/cpuacct");
        assertThat(selected.fallbackReason()).isNull();
    }

    @Test
    void cgroupModeFallsBackWithTheReasonWhenTheCounterIsMissing() {
        new FakeFs(root).procCgroup("0::/app\n").mountinfo(FakeFs.V2_MOUNTINFO).cpusAllowed("0-3")
                .write("/sys/fs/cgroup/app/cpu.max", "150000 100000\n");

        CpuSourceSelector.Selected selected = select(CpuSourceMode.CGROUP);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.PROCESS);
        assertThat(selected.fallbackReason()).contains("does not exist").contains("/sys/fs/cgroup/app/cpu.stat");
        // The quota still describes what the process may use.
        assertThat(selected.effectiveCpus().count()).isEqualTo(1.5);
        assertThat(debugLines()).anyMatch(l -> l.startsWith(
                "No cgroup CPU stats found, falling back to process CPU time: CPU counter file does not exist"));
    }

    @Test
    void autoFallsBackWhenTheCounterHoldsGarbage() {
        v1Pod().write("/sys/fs/cgroup/cpuacct/kubepods/burstable/pod1/abc/cpuacct.usage", "not a number\n");

        CpuSourceSelector.Selected selected = select(CpuSourceMode.AUTO);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.PROCESS);
        assertThat(selected.fallbackReason()).contains("unexpected content").contains("not a number");
    }

    @Test
    void cgroupModeFallsBackWhenThereIsNoCgroupInformation() {
        // e.g. not Linux: no /proc at all.
        CpuSourceSelector.Selected selected = select(CpuSourceMode.CGROUP);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.PROCESS);
        assertThat(selected.fallbackReason()).contains("/proc/self/cgroup");
        assertThat(selected.effectiveCpus()).isEqualTo(new EffectiveCpuCount(2, "Runtime.availableProcessors() (2)"));
    }

    @Test
    void cgroupModeFallsBackWhenNoCpuHierarchyIsMounted() {
        new FakeFs(root).procCgroup("2:cpuacct:/a\n1:cpu:/a\n").mountinfo(FakeFs.V2_MOUNTINFO).cpusAllowed("0");

        CpuSourceSelector.Selected selected = select(CpuSourceMode.CGROUP);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.PROCESS);
        assertThat(selected.fallbackReason()).contains("no cgroup v1 cpuacct or cgroup v2 hierarchy is mounted");
    }

    @Test
    void processModeMeasuresTheProcessButKeepsTheCgroupQuota() throws IOException {
        v1Pod();

        CpuSourceSelector.Selected selected = select(CpuSourceMode.PROCESS);

        assertThat(selected.source().kind()).isEqualTo(CpuSourceKind.PROCESS);
        assertThat(selected.fallbackReason()).isNull();
        assertThat(selected.cgroupPath()).isNull();
        assertThat(selected.effectiveCpus().count()).isEqualTo(1.5);
        processCpu.set(9_000_000);
        assertThat(selected.source().cpuTimeNanos()).isEqualTo(9_000_000);
    }

    @Test
    void onThisMachineAutoMeasuresTheProcessAndCgroupModeReadsTheRealV1Root() throws IOException {
        CpuSourceSelector.Selected auto = new CpuSourceSelector(Path.of("/")).select(CpuSourceMode.AUTO);
        CpuSourceSelector.Selected cgroup = new CpuSourceSelector(Path.of("/")).select(CpuSourceMode.CGROUP);
        try {
            if (auto.source().kind() == CpuSourceKind.PROCESS) {
                // A plain process here is in the root cgroup, whose counters are the whole machine's.
                assertThat(auto.fallbackReason()).contains("root");
            }
            assertThat(auto.source().cpuTimeNanos()).isPositive();
            assertThat(cgroup.source().kind()).isIn(CpuSourceKind.CGROUP_V1, CpuSourceKind.CGROUP_V2);
            assertThat(cgroup.source().cpuTimeNanos()).isPositive();
        } finally {
            auto.source().close();
            cgroup.source().close();
        }
    }
}
