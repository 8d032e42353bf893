package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.format.ProfileView;


import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.CpuProfilerOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.internal.engine.JfrExecutionEngine;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.stack.HotMethods;
import dev.cpuprofiler.internal.testing.FakeCgroupV2Container;
import dev.cpuprofiler.internal.testing.FakeTime;
import dev.cpuprofiler.internal.testing.ScriptedEngine.Behaviour;
import dev.cpuprofiler.internal.testing.ScriptedEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
        o.setStartupGrace(Duration.ZERO);
        o.setLookback(Duration.ZERO); // look-back has tests of its own (CpuProfilerLookbackTest)
        o.getReference().setEnabled(false); // so has the reference of normal (CpuProfilerReferenceTest)
        return o;
    }

    @Test
    void monitorsTheContainersCgroupAndTriggersWhenItsCpuStaysHigh() throws Exception {
        // A cgroup namespace: the process sees its own cgroup as "/", mounted at /sys/fs/cgroup.
        FakeCgroupV2Container container = FakeCgroupV2Container.create(root, "150000 100000", "0-3");
        // The session's recording cannot end until the test lets it: "profiling" is seen however slow the machine.
        ScriptedEngine engine = ScriptedEngine.working(JfrExecutionEngine.ID).then(Behaviour.HANG_AT_STOP);
        CpuProfilerOptions o = fastOptions();
        o.setEngine(EngineChoice.JFR_EXECUTION);
        List<Thread> threads = new CopyOnWriteArrayList<>();
        DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o)
                .fsRoot(root)
                .engines(List.of(engine))
                .workDirectory(root.resolve("work"))
                // The fake counter holds none of this JVM's real CPU: the test JVM's JIT, the profiler's own while the
                // session works, must not come off the container's scripted 90%.
                .compilationTime(() -> 0L)
                .threadFactory(r -> {
                    Thread t = new Thread(r);
                    threads.add(t);
                    return t;
                })
                .build();

        CpuProfilerStatus before = profiler.status();
        assertThat(before.cpu().source()).isEqualTo("cgroup-v2");
        assertThat(before.cpu().cgroupPath()).endsWith("/sys/fs/cgroup");
        assertThat(before.cpu().effectiveCpuCount()).isEqualTo(1.5);
        assertThat(before.cpu().effectiveCpuOrigin()).contains("150000/100000");
        assertThat(before.cpu().averagePercent()).isNull();
        assertThat(before.state()).isEqualTo(CpuProfilerStatus.State.MONITORING);

        // The container burns 1.35 of its 1.5 CPUs: 90%.
        try (Burner load = new Burner(container, 1.35)) {
            profiler.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> engine.starts.get() == 1);
            // The status does not wait for a launch under way: it names the session once launched.
            await().atMost(Duration.ofSeconds(20)).until(() -> profiler.status().session() != null);
            CpuProfilerStatus during = profiler.status();
            assertThat(during.state()).isEqualTo(CpuProfilerStatus.State.PROFILING);
            assertThat(during.session().trigger()).isEqualTo(SessionTrigger.CPU);
            assertThat(during.cpu().averagePercent()).isCloseTo(90, offset(10.0));
            assertThat(during.cpu().latestPercent()).isNotNull();

            engine.unhang.countDown();
            await().atMost(Duration.ofSeconds(20)).until(() -> profiler.store().size() == 1);
            await().atMost(Duration.ofSeconds(10)).until(() -> profiler.status().state() == CpuProfilerStatus.State.COOLDOWN);
            assertThat(profiler.status().trigger().cooldownUntil()).isNotNull();
            assertThat(HotMethods.of(ProfileView.FULL.fullTree(profiler.store().latest().orElseThrow()), 1))
                    .extracting(HotMethods.Method::method).containsExactly(ScriptedEngine.FRAME);
        } finally {
            profiler.close();
        }
        // Only the threads this profiler made are judged: other tests' profilers may still be winding down.
        assertThat(threads).extracting(Thread::getName)
                .contains("cpuprofiler-sampler", "cpuprofiler-policy", "cpuprofiler-session");
        assertThat(threads).allMatch(Thread::isDaemon);
        for (Thread t : threads) {
            t.join(5000);
        }
        assertThat(threads).noneMatch(Thread::isAlive);
        assertThat(root.resolve("work")).doesNotExist();
    }

    @Test
    void aCpuTriggeredSessionWhoseEngineFailsEndsInCooldownAndTheNextTriggerRecords() throws Exception {
        FakeCgroupV2Container container = FakeCgroupV2Container.create(root, "150000 100000", "0-3");
        ScriptedEngine failingOnce = ScriptedEngine.working(JfrExecutionEngine.ID).then(Behaviour.FAIL_AT_STOP);
        CpuProfilerOptions o = fastOptions();
        o.setEngine(EngineChoice.JFR_EXECUTION);
        o.setCooldown(Duration.ofMinutes(30));
        FakeTime clock = new FakeTime(Instant.now()); // cooldowns end when the test says; CPU is sampled in real time
        List<SessionOutcome> outcomes = new CopyOnWriteArrayList<>();
        try (Burner load = new Burner(container, 1.35);
                DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).fsRoot(root).clock(clock).engines(List.of(failingOnce))
                        .workDirectory(root.resolve("work")).build()) {
            profiler.addSessionEndListener((trigger, session, outcome) -> outcomes.add(outcome));
            profiler.start();

            await().atMost(Duration.ofSeconds(20)).until(() -> outcomes.size() == 1);
            SessionOutcome failed = outcomes.get(0);
            assertThat(failed.failed()).isTrue();
            assertThat(failed.reason()).contains("could not write");
            CpuProfilerStatus afterFailure = profiler.status();
            assertThat(afterFailure.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
            assertThat(afterFailure.session()).isNull();
            assertThat(afterFailure.trigger().cooldownUntil()).isEqualTo(failed.endedAt().plus(Duration.ofMinutes(30)));
            assertThat(profiler.store().size()).isZero();

            // The cooldown ends with the load still there: the next trigger records with the engine, now working.
            clock.advance(Duration.ofMinutes(31));
            await().atMost(Duration.ofSeconds(20)).until(() -> profiler.store().size() == 1);
            assertThat(failingOnce.starts).hasValue(2);
            await().atMost(Duration.ofSeconds(5)).until(() -> outcomes.size() == 2);
            assertThat(outcomes.get(1).failed()).isFalse();
            assertThat(profiler.status().state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
            long samples = profiler.sampler().samples();
            await().atMost(Duration.ofSeconds(10)).until(() -> profiler.sampler().samples() >= samples + 3);
        }
    }

    /** One start-up grace, the trigger's: the look-back is held back by it, not by a copy of its own. */
    @Test
    void theStartupGraceHoldsTheTriggerAndTheLookbackUntilTheSameInstant() throws Exception {
        FakeCgroupV2Container.create(root, "150000 100000", "0-3");
        CpuProfilerOptions o = fastOptions();
        o.setStartupGrace(Duration.ofMinutes(2));
        o.setLookback(Duration.ofSeconds(30));
        FakeTime clock = new FakeTime(Instant.now());
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).fsRoot(root).clock(clock)
                .workDirectory(root.resolve("work")).build()) {
            profiler.start();
            Instant graceEnd = clock.instant().plus(Duration.ofMinutes(2));
            // The look-back starts on the profiler's start thread, after start() returned.
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> profiler.status().lookback().state() == CpuProfilerStatus.LookbackState.IDLE);

            CpuProfilerStatus during = profiler.status();
            assertThat(during.trigger().startupGraceUntil()).isEqualTo(graceEnd);
            assertThat(during.lookback().armsFrom()).isEqualTo(graceEnd);
            assertThat(during.lookback().reason()).isEqualTo("start-up grace: it may arm from " + graceEnd);

            clock.advance(Duration.ofMinutes(2));
            CpuProfilerStatus after = profiler.status();
            assertThat(after.trigger().startupGraceUntil()).isNull();
            assertThat(after.lookback().armsFrom()).isNull();
        }
    }

    /** Keeps the fake container's CPU counter rising at a number of cores until closed. */
    private static final class Burner implements AutoCloseable {

        private final AtomicBoolean burning = new AtomicBoolean(true);
        private final Thread thread;

        Burner(FakeCgroupV2Container container, double cores) {
            long start = System.nanoTime();
            thread = new Thread(() -> {
                while (burning.get()) {
                    try {
                        container.usage((long) ((System.nanoTime() - start) / 1000 * cores));
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            burning.set(false);
            thread.join();
        }
    }

    @Test
    void fallsBackToTheProcessWhenThereIsNoCgroupAndSaysWhy() throws Exception {
        write("proc/self/cgroup", "0::/\n");
        write("proc/self/mountinfo", "22 29 0:21 / /proc rw - proc proc rw\n");
        write("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t0-1\n");
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setSource(CpuSourceMode.CGROUP);
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).fsRoot(root).build()) {
            CpuProfilerStatus.Cpu cpu = profiler.status().cpu();
            assertThat(cpu.source()).isEqualTo("process");
            assertThat(cpu.fallbackReason()).isNotBlank();
            assertThat(cpu.effectiveCpuCount()).isEqualTo(2.0);
        }
    }

    /** The work directory is named at build time but created by the first recording: a JVM that never profiles,
     * even one killed before close, leaves nothing in the temp directory. */
    @Test
    void aProfilerThatNeverRecordsCreatesNoWorkDirectory() throws Exception {
        FakeCgroupV2Container.create(root, "150000 100000", "0-3");
        Path workDirectory;
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(fastOptions()).fsRoot(root).build()) {
            profiler.start();
            workDirectory = Path.of(profiler.status().disk().places().stream()
                    .filter(p -> p.role().equals("work-directory")).findFirst().orElseThrow().path());
            assertThat(workDirectory.getFileName().toString()).matches("cpuprofiler-\\d+-[0-9a-z]+");
            assertThat(workDirectory.getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
            assertThat(workDirectory).doesNotExist();
        }
        assertThat(workDirectory).doesNotExist();
    }
}
