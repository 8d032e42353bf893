package dev.cpuprofiler.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.session.SessionTrigger;
import dev.cpuprofiler.testing.FakeCgroupV2Container;
import dev.cpuprofiler.testing.FakeSession;
import dev.cpuprofiler.trigger.TriggerState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade wired end to end on a fake cgroup v2 container with a 1.5-CPU quota, with real threads. */
class CpuProfilerTest {

    @TempDir
    Path root;

    private void write(String relative, String content) throws IOException {
        Path p = root.resolve(relative);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private CpuProfilerOptions fastOptions() {
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setThreshold(50);
        o.setSamplingInterval(Duration.ofMillis(20));
        o.setRollingHistoryInterval(Duration.ofMillis(200));
        o.setAverageWindow(Duration.ofMillis(200));
        o.setRollingHistorySize(Duration.ofSeconds(2));
        o.setPollingInterval(Duration.ofMillis(50));
        o.setDuration(Duration.ofSeconds(1));
        return o;
    }

    @Test
    void monitorsTheContainersCgroupAndTriggersWhenItsCpuStaysHigh() throws Exception {
        // A cgroup namespace: the process sees its own cgroup as "/", mounted at /sys/fs/cgroup.
        FakeCgroupV2Container container = FakeCgroupV2Container.create(root, "150000 100000", "0-3");

        List<FakeSession> launched = new CopyOnWriteArrayList<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        CpuProfiler profiler = CpuProfiler.builder(fastOptions())
                .fsRoot(root)
                .threadFactory(r -> {
                    Thread t = new Thread(r);
                    threads.add(t);
                    return t;
                })
                .sessionLauncher((trigger, duration) -> {
                    FakeSession s = new FakeSession("s" + launched.size(), trigger, Clock.systemUTC().instant(),
                            duration);
                    launched.add(s);
                    return s;
                })
                .build();

        CpuProfilerStatus before = profiler.status();
        assertThat(before.cpu().source()).isEqualTo("cgroup-v2");
        assertThat(before.cpu().cgroupPath()).endsWith("/sys/fs/cgroup");
        assertThat(before.cpu().effectiveCpuCount()).isEqualTo(1.5);
        assertThat(before.cpu().effectiveCpuOrigin()).contains("150000/100000");
        assertThat(before.cpu().averagePercent()).isNull();
        assertThat(before.state()).isEqualTo(TriggerState.MONITORING);

        // The container burns 1.35 of its 1.5 CPUs: 90%.
        AtomicBoolean burning = new AtomicBoolean(true);
        long start = System.nanoTime();
        Thread load = new Thread(() -> {
            while (burning.get()) {
                try {
                    container.usage((long) ((System.nanoTime() - start) / 1000 * 1.35));
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        load.start();
        try {
            profiler.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> !launched.isEmpty());
            CpuProfilerStatus during = profiler.status();
            assertThat(during.state()).isEqualTo(TriggerState.PROFILING);
            assertThat(during.session().trigger()).isEqualTo(SessionTrigger.CPU);
            assertThat(during.cpu().averagePercent()).isCloseTo(90, offset(10.0));
            assertThat(during.cpu().latestPercent()).isNotNull();

            launched.get(0).complete(Clock.systemUTC().instant());
            assertThat(profiler.status().state()).isEqualTo(TriggerState.COOLDOWN);
            assertThat(profiler.status().trigger().cooldownUntil()).isNotNull();
        } finally {
            burning.set(false);
            load.join();
            profiler.close();
        }
        assertThat(threads).extracting(Thread::getName).contains("cpuprofiler-sampler", "cpuprofiler-policy");
        assertThat(threads).allMatch(Thread::isDaemon);
        await().atMost(Duration.ofSeconds(5)).until(() -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("cpuprofiler-") && t.isAlive()));
    }

    @Test
    void fallsBackToTheProcessWhenThereIsNoCgroupAndSaysWhy() throws Exception {
        write("proc/self/cgroup", "0::/\n");
        write("proc/self/mountinfo", "22 29 0:21 / /proc rw - proc proc rw\n");
        write("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t0-1\n");
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setSource(CpuSourceMode.CGROUP);
        try (CpuProfiler profiler = CpuProfiler.builder(o).fsRoot(root).build()) {
            CpuStatus cpu = profiler.status().cpu();
            assertThat(cpu.source()).isEqualTo("process");
            assertThat(cpu.fallbackReason()).isNotBlank();
            assertThat(cpu.effectiveCpuCount()).isEqualTo(2.0);
        }
    }
}
