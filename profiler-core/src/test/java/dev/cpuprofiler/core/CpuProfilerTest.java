package dev.cpuprofiler.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.session.SessionOutcome;
import dev.cpuprofiler.session.SessionTrigger;
import dev.cpuprofiler.session.engine.EngineFailureException;
import dev.cpuprofiler.session.engine.EngineRecording;
import dev.cpuprofiler.session.engine.EngineSettings;
import dev.cpuprofiler.session.engine.JfrExecutionEngine;
import dev.cpuprofiler.session.engine.ProfilingEngine;
import dev.cpuprofiler.session.engine.RecordingResult;
import dev.cpuprofiler.stack.Frame;
import dev.cpuprofiler.stack.StackSink;
import dev.cpuprofiler.testing.FakeCgroupV2Container;
import dev.cpuprofiler.testing.FakeSession;
import dev.cpuprofiler.testing.FakeTime;
import dev.cpuprofiler.trigger.TriggerState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
    void aCpuTriggeredSessionWhoseEngineFailsEndsInCooldownAndTheNextTriggerRecords() throws Exception {
        FakeCgroupV2Container container = FakeCgroupV2Container.create(root, "150000 100000", "0-3");
        AtomicInteger starts = new AtomicInteger();
        ProfilingEngine failingOnce = new ProfilingEngine() {
            @Override
            public String id() {
                return JfrExecutionEngine.ID;
            }

            @Override
            public EngineRecording start(EngineSettings settings, StackSink sink) {
                boolean fail = starts.incrementAndGet() == 1;
                return new EngineRecording() {
                    @Override
                    public String engineId() {
                        return JfrExecutionEngine.ID;
                    }

                    @Override
                    public long samplesSoFar() {
                        return 0;
                    }

                    @Override
                    public RecordingResult stop() {
                        if (fail) {
                            throw new EngineFailureException("could not write the recording",
                                    new IOException("No space left on device"));
                        }
                        sink.accept(List.of(Frame.java("Hot.spin")), "worker", 1);
                        return new RecordingResult(JfrExecutionEngine.ID, "fake", 1, 0, null, List.of(), List.of());
                    }

                    @Override
                    public void cancel() {
                    }
                };
            }
        };
        CpuProfilerOptions o = fastOptions();
        o.setEngine(EngineChoice.JFR_EXECUTION);
        o.setCooldown(Duration.ofMinutes(30));
        FakeTime clock = new FakeTime(Instant.now()); // cooldowns end when the test says; CPU is sampled in real time
        List<SessionOutcome> outcomes = new CopyOnWriteArrayList<>();
        try (Burner load = new Burner(container, 1.35);
                CpuProfiler profiler = CpuProfiler.builder(o).fsRoot(root).clock(clock).engines(List.of(failingOnce))
                        .workDirectory(root.resolve("work")).build()) {
            profiler.addSessionEndListener((trigger, session, outcome) -> outcomes.add(outcome));
            profiler.start();

            await().atMost(Duration.ofSeconds(20)).until(() -> outcomes.size() == 1);
            SessionOutcome failed = outcomes.get(0);
            assertThat(failed.failed()).isTrue();
            assertThat(failed.reason()).contains("could not write the recording");
            CpuProfilerStatus afterFailure = profiler.status();
            assertThat(afterFailure.state()).isEqualTo(TriggerState.COOLDOWN);
            assertThat(afterFailure.session()).isNull();
            assertThat(afterFailure.trigger().cooldownUntil()).isEqualTo(failed.endedAt().plus(Duration.ofMinutes(30)));
            assertThat(profiler.profiles().size()).isZero();

            // The cooldown ends with the load still there: the next trigger records with the engine, now working.
            clock.advance(Duration.ofMinutes(31));
            await().atMost(Duration.ofSeconds(20)).until(() -> profiler.profiles().size() == 1);
            assertThat(starts).hasValue(2);
            await().atMost(Duration.ofSeconds(5)).until(() -> outcomes.size() == 2);
            assertThat(outcomes.get(1).failed()).isFalse();
            assertThat(profiler.status().state()).isEqualTo(TriggerState.COOLDOWN);
            long samples = profiler.sampler().samples();
            await().atMost(Duration.ofSeconds(10)).until(() -> profiler.sampler().samples() >= samples + 3);
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
        try (CpuProfiler profiler = CpuProfiler.builder(o).fsRoot(root).build()) {
            CpuStatus cpu = profiler.status().cpu();
            assertThat(cpu.source()).isEqualTo("process");
            assertThat(cpu.fallbackReason()).isNotBlank();
            assertThat(cpu.effectiveCpuCount()).isEqualTo(2.0);
        }
    }
}
