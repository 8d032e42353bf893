package dev.cpuprofiler.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import dev.cpuprofiler.internal.engine.JfrExecutionEngine;
import dev.cpuprofiler.internal.engine.JfrSetup;
import dev.cpuprofiler.internal.engine.ProfilingEngine;
import dev.cpuprofiler.internal.stack.StackSink;
import dev.cpuprofiler.internal.testing.FakeCgroupV2Container;
import dev.cpuprofiler.internal.testing.FakeTime;
import dev.cpuprofiler.internal.testing.LogCapture;
import dev.cpuprofiler.internal.testing.ScriptedEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code start()} is called on the application's main thread before it is reported ready: the slow part of starting
 * (JFR's stack depth through the platform MBean server, async-profiler's library) runs on the profiler's start thread.
 * Here the {@code jfrConfigure} command blocks until the test releases it.
 */
class CpuProfilerStartTest {

    private static final Duration GRACE = Duration.ofMinutes(1);

    @TempDir
    Path root;

    private final FakeTime clock = new FakeTime(Instant.now());
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    // Per thread name: whether JFR's stack depth was settled when that thread began to run.
    private final Map<String, Boolean> depthSettledAtRun = new ConcurrentHashMap<>();

    /** The {@code jfrConfigure} command, blocked until released: the platform MBean server being slow to come up. */
    private static final class BlockedConfigure implements JfrSetup.ConfigureCommand {

        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public String run(String... arguments) throws Exception {
            entered.countDown();
            release.await();
            return arguments.length == 0 ? "Stack depth: 64" : "Stack depth: 512";
        }
    }

    @Test
    void startReturnsWhileJfrsStackDepthIsRaisedAndTheSamplerStartsOnceItIs() throws Exception {
        BlockedConfigure configure = new BlockedConfigure();
        JfrSetup depth = new JfrSetup(configure, () -> false);
        PipelineBuilder builder = builder(depth, ScriptedEngine.working(JfrExecutionEngine.ID));
        Instant startedAt = clock.instant();
        try (LogCapture logs = new LogCapture();
                // Neither building nor start() waits for the command: one that did would never return.
                DefaultCpuProfiler profiler = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                    DefaultCpuProfiler built = builder.build();
                    built.start();
                    return built;
                })) {
            assertThat(configure.entered.await(20, TimeUnit.SECONDS)).isTrue();

            assertThat(names()).containsExactly("cpuprofiler-start");
            assertThat(profiler.sampler().samples()).isZero();
            assertThat(profiler.status().lookback().state()).isEqualTo(CpuProfilerStatus.LookbackState.STOPPED);
            // The start-up grace counts from start(), not from when the sampler gets going.
            assertThat(profiler.status().trigger().startupGraceUntil()).isEqualTo(startedAt.plus(GRACE));

            configure.release.countDown();
            await().atMost(Duration.ofSeconds(20)).until(() -> profiler.sampler().samples() > 0);
            assertThat(names()).containsSubsequence("cpuprofiler-start", "cpuprofiler-sampler");
            // The depth was raised before the sampler (whose tick arms the look-back, which initialises JFR) ran.
            assertThat(depthSettledAtRun).containsEntry("cpuprofiler-sampler", true);
            assertThat(depth.state()).hasValueSatisfying(s -> assertThat(s.raised()).isTrue());
            assertThat(profiler.status().lookback().state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
            assertThat(logs.count("CPU profiler started")).isEqualTo(1);
        }
        assertNoThreadAlive();
    }

    @Test
    void closeDuringABlockedStartLeavesNoThreadAndNeverStartsTheSampler() throws Exception {
        BlockedConfigure configure = new BlockedConfigure();
        JfrSetup depth = new JfrSetup(configure, () -> false);
        PipelineBuilder builder = builder(depth, ScriptedEngine.working(JfrExecutionEngine.ID));
        try (LogCapture logs = new LogCapture()) {
            DefaultCpuProfiler profiler = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                DefaultCpuProfiler built = builder.build();
                built.start();
                return built;
            });
            assertThat(configure.entered.await(20, TimeUnit.SECONDS)).isTrue();

            Thread closer = new Thread(profiler::close, "test-closer");
            closer.start();
            // Released only once close() has marked the profiler closed and waits for the start thread.
            await().atMost(Duration.ofSeconds(20)).until(() -> Arrays.stream(closer.getStackTrace())
                    .anyMatch(f -> f.getMethodName().equals("awaitStarter")));
            configure.release.countDown();
            closer.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(closer.isAlive()).isFalse();

            assertNoThreadAlive();
            assertThat(names()).containsExactly("cpuprofiler-start");
            assertThat(profiler.sampler().samples()).isZero();
            assertThat(profiler.status().lookback().state()).isEqualTo(CpuProfilerStatus.LookbackState.STOPPED);
            assertThat(logs.count("CPU profiler started")).isZero();
            assertThat(logs.messages(Level.WARN)).noneMatch(m -> m.contains("still getting ready"));
            assertThatThrownBy(profiler::start).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aFailureGettingReadyIsLoggedOnceAndMonitoringStartsAllTheSame() throws Exception {
        // Past JfrSetup's own handling, which turns exceptions and linkage errors into a note.
        JfrSetup depth = new JfrSetup(arguments -> {
            throw new AssertionError("jfrConfigure broke");
        }, () -> false);
        try (LogCapture logs = new LogCapture();
                DefaultCpuProfiler profiler = builder(depth, ScriptedEngine.working(JfrExecutionEngine.ID)).build()) {
            profiler.start();
            await().atMost(Duration.ofSeconds(20)).until(() -> profiler.sampler().samples() > 0);
            assertThat(logs.messages(Level.WARN)).filteredOn(m -> m.contains("could not raise JFR's stack depth"))
                    .hasSize(1);
            assertThat(logs.count("CPU profiler started")).isEqualTo(1);
        }
        assertNoThreadAlive();
    }

    private PipelineBuilder builder(JfrSetup depth, ProfilingEngine engine) {
        FakeCgroupV2Container.create(root, "150000 100000", "0-3");
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setThreshold(50);
        o.setSamplingInterval(Duration.ofMillis(20));
        o.setRollingHistoryInterval(Duration.ofMillis(200));
        o.setAverageWindow(Duration.ofMillis(200));
        o.setRollingHistorySize(Duration.ofSeconds(2));
        o.setPollingInterval(Duration.ofMillis(50));
        o.setDuration(Duration.ofSeconds(1));
        o.setStartupGrace(GRACE); // the fake clock stands still: nothing triggers, the look-back never arms
        o.setLookback(Duration.ofSeconds(30));
        o.getReference().setEnabled(false);
        o.setEngine(EngineChoice.JFR_EXECUTION);
        return DefaultCpuProfiler.builder(o).fsRoot(root).clock(clock).engines(List.of(engine)).jfrSetup(depth)
                .workDirectory(root.resolve("work")).threadFactory(r -> {
                    Thread t = new Thread(() -> {
                        depthSettledAtRun.putIfAbsent(Thread.currentThread().getName(), depth.state().isPresent());
                        r.run();
                    });
                    threads.add(t);
                    return t;
                });
    }

    private List<String> names() {
        return threads.stream().map(Thread::getName).toList();
    }

    /** Every thread this test's profiler made has ended by the time close() returned: it waits for each. */
    private void assertNoThreadAlive() {
        assertThat(threads).isNotEmpty().allMatch(Thread::isDaemon).noneMatch(Thread::isAlive);
    }
}
