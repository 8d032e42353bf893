package dev.cpuprofiler.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.lookback.LookbackState;
import dev.cpuprofiler.lookback.LookbackView;
import dev.cpuprofiler.session.Profile;
import dev.cpuprofiler.session.SessionTrigger;
import dev.cpuprofiler.session.engine.JfrExecutionEngine;
import dev.cpuprofiler.stack.CollapsedStacksRenderer;
import dev.cpuprofiler.stack.StackTreeSnapshot;
import dev.cpuprofiler.testing.FakeCgroupV2Container;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Look-back through the facade, with real JFR sampling and a real session: a burst of CPU in a distinctively named
 * method that is over before the CPU trigger fires still shows in the CPU-triggered profile when look-back is on,
 * and does not when it is off. The container's CPU counter is a fake cgroup file, so the test decides when the
 * trigger fires; the stacks come from the real threads of this JVM.
 */
class CpuProfilerLookbackTest {

    @TempDir
    Path root;

    private volatile long sink;

    @Test
    void aBurstThatEndedBeforeTheTriggerIsInTheProfileWithLookback() throws Exception {
        Profile profile = runBurstThenTrigger(Duration.ofSeconds(30));

        assertThat(collapsed(profile.tree(LookbackView.INCLUDE))).contains("lookbackBurstBeforeTrigger");
        assertThat(collapsed(profile.tree(LookbackView.ONLY))).contains("lookbackBurstBeforeTrigger");
        assertThat(collapsed(profile.tree(LookbackView.EXCLUDE)).lines())
                .as("session %s..%s, look-back %s..%s", profile.startedAt(), profile.endedAt(),
                        profile.lookback().startedAt(), profile.lookback().endedAt())
                .noneMatch(l -> l.contains("lookbackBurstBeforeTrigger"));
        assertThat(collapsed(profile.tree(LookbackView.EXCLUDE))).contains("workWhileTheSessionRecords");
        assertThat(profile.lookback()).isNotNull();
        assertThat(profile.lookback().endedAt()).isBeforeOrEqualTo(profile.startedAt());
        assertThat(profile.lookback().startedAt()).isBefore(profile.lookback().endedAt());
        assertThat(profile.lookback().weightUnit()).isEqualTo(profile.samplingPeriod());
        assertThat(profile.tree(LookbackView.INCLUDE).totalSamples())
                .isEqualTo(profile.tree().totalSamples() + profile.lookback().weight());
    }

    @Test
    void withLookbackOffTheBurstIsNotInTheProfile() throws Exception {
        Profile profile = runBurstThenTrigger(Duration.ZERO);

        assertThat(profile.lookback()).isNull();
        for (LookbackView view : List.of(LookbackView.INCLUDE, LookbackView.EXCLUDE)) {
            String stacks = collapsed(profile.tree(view));
            assertThat(stacks).doesNotContain("lookbackBurstBeforeTrigger");
            assertThat(stacks).contains("workWhileTheSessionRecords");
        }
        assertThat(profile.tree(LookbackView.ONLY).totalSamples()).isZero();
    }

    @Test
    void anOnDemandProfileHasNoLookbackPartAndTheLookbackRecordsAgainRightAfter() throws Exception {
        FakeCgroupV2Container.create(root, "max 100000", "0-1");
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setLookback(Duration.ofSeconds(10));
        try (CpuProfiler profiler = CpuProfiler.builder(o).fsRoot(root)
                .engines(List.of(new JfrExecutionEngine())).build()) {
            profiler.start();
            awaitLookback(profiler, LookbackState.RECORDING);
            profiler.startOnDemand(Duration.ofSeconds(1));
            await().atMost(Duration.ofSeconds(30)).until(() -> profiler.profiles().latest().isPresent());
            Profile profile = profiler.profiles().latest().orElseThrow();
            assertThat(profile.trigger()).isEqualTo(SessionTrigger.MANUAL);
            assertThat(profile.lookback()).isNull();
            // No cooldown after an on-demand profile: the look-back records again at once.
            awaitLookback(profiler, LookbackState.RECORDING);
        }
    }

    private static void awaitLookback(CpuProfiler profiler, LookbackState state) {
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> profiler.status().lookback().state() == state);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("look-back not " + state + ": " + profiler.status().lookback()
                    + "; session " + profiler.status().session(), e);
        }
    }

    private Profile runBurstThenTrigger(Duration lookback) throws Exception {
        FakeCgroupV2Container container = FakeCgroupV2Container.create(root, "max 100000", "0-1");

        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setThreshold(50);
        o.setSamplingInterval(Duration.ofMillis(20));
        o.setRollingHistoryInterval(Duration.ofMillis(200));
        o.setAverageWindow(Duration.ofMillis(200));
        o.setRollingHistorySize(Duration.ofSeconds(2));
        o.setPollingInterval(Duration.ofMillis(50));
        o.setDuration(Duration.ofSeconds(2));
        o.setLookback(lookback);
        o.setLookbackSamplingPeriod(Duration.ofMillis(10));

        AtomicBoolean containerBusy = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        Thread counter = new Thread(() -> {
            long usage = 0;
            long last = System.nanoTime();
            while (!stop.get()) {
                long now = System.nanoTime();
                usage += containerBusy.get() ? (now - last) / 1000 * 19 / 10 : 0;  // 95% of 2 CPUs
                last = now;
                try {
                    container.usage(usage);
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "fake-cgroup-counter");
        counter.setDaemon(true);
        counter.start();

        try (CpuProfiler profiler = CpuProfiler.builder(o).fsRoot(root)
                .engines(List.of(new JfrExecutionEngine())).build()) {
            assertThat(profiler.status().cpu().source()).isEqualTo("cgroup-v2");
            profiler.start();
            if (!lookback.isZero()) {
                awaitLookback(profiler, LookbackState.RECORDING);
            } else {
                assertThat(profiler.status().lookback().state()).isEqualTo(LookbackState.OFF);
            }
            // The burst: over before the container's CPU (and so the trigger) ever rises.
            long end = System.nanoTime() + Duration.ofMillis(1500).toNanos();
            while (System.nanoTime() < end) {
                lookbackBurstBeforeTrigger();
            }
            assertThat(profiler.profiles().latest()).isEmpty();

            AtomicBoolean working = new AtomicBoolean(true);
            Thread worker = new Thread(() -> {
                while (working.get()) {
                    workWhileTheSessionRecords();
                }
            }, "session-worker");
            worker.start();
            containerBusy.set(true);
            try {
                try {
                    await().atMost(Duration.ofSeconds(30)).until(() -> profiler.profiles().latest().isPresent());
                } catch (org.awaitility.core.ConditionTimeoutException e) {
                    throw new AssertionError("no CPU-triggered profile; status: " + profiler.status(), e);
                }
            } finally {
                working.set(false);
                worker.join();
            }
            Profile profile = profiler.profiles().latest().orElseThrow();
            assertThat(profile.trigger()).isEqualTo(SessionTrigger.CPU);
            if (!lookback.isZero()) {
                // After the session it waits for the cooldown (4 h by default) less one window.
                awaitLookback(profiler, LookbackState.STEPPED_ASIDE);
                assertThat(profiler.status().lookback().resumesAt())
                        .isEqualTo(profiler.status().trigger().cooldownUntil().minus(lookback));
            }
            return profile;
        } finally {
            stop.set(true);
            counter.join();
        }
    }

    private void lookbackBurstBeforeTrigger() {
        sink += spin(20_000);
    }

    private void workWhileTheSessionRecords() {
        sink += spin(20_000);
    }

    private static long spin(int rounds) {
        long x = 17;
        for (int i = 0; i < rounds; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        return x;
    }

    private static String collapsed(StackTreeSnapshot tree) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new CollapsedStacksRenderer().render(tree, out);
        return out.toString(StandardCharsets.UTF_8);
    }

}
