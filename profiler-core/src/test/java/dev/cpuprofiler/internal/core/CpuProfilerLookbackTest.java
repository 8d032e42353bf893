package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.format.ProfileView;


import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.internal.engine.JfrExecutionEngine;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.format.Rendered;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.internal.testing.FakeCgroupV2Container;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Look-back through the facade, with real JFR sampling and a real session: while the container is calm the look-back
 * records nothing, so work done then is in no profile; when its CPU rises the look-back arms, and the CPU-triggered
 * profile that follows holds, in its look-back part, the work of the rise before the trigger fired. With look-back
 * off the profile starts at the trigger. The container's CPU counter is a fake cgroup file, so the test decides when
 * the CPU rises; the stacks come from the real threads of this JVM.
 */
class CpuProfilerLookbackTest {

    @TempDir
    Path root;

    private volatile long sink;

    @Test
    void theRiseBeforeTheTriggerIsInTheProfileAndCalmWorkBeforeItIsNot() throws Exception {
        Run run = runRiseThenTrigger(Duration.ofSeconds(10));
        Profile profile = run.profile();

        assertThat(profile.lookback()).isNotNull();
        assertThat(collapsed(ProfileView.of(LookbackView.ONLY).fullTree(profile))).contains("riseBeforeTheTrigger");
        assertThat(collapsed(ProfileView.of(LookbackView.INCLUDE).fullTree(profile))).contains("riseBeforeTheTrigger");
        for (LookbackView view : LookbackView.values()) {
            assertThat(collapsed(ProfileView.of(view).fullTree(profile))).as("%s: the look-back was idle then", view)
                    .doesNotContain("workWhileCalm");
        }
        assertThat(collapsed(ProfileView.of(LookbackView.EXCLUDE).fullTree(profile))).contains("workWhileTheSessionRecords");
        assertThat(profile.lookback().startedAt()).isAfterOrEqualTo(run.armedSince());
        assertThat(profile.lookback().endedAt()).isBeforeOrEqualTo(profile.recording().startedAt());
        assertThat(profile.lookback().startedAt()).isBefore(profile.lookback().endedAt());
        assertThat(profile.lookback().weightUnit()).isEqualTo(profile.recording().samplingPeriod());
        assertThat(ProfileView.of(LookbackView.INCLUDE).fullTree(profile).totalSamples())
                .isEqualTo(profile.tree().totalSamples() + profile.lookback().weight());
        System.out.println("[lookback] armed " + run.armedSince() + ", look-back " + profile.lookback().startedAt()
                + ".." + profile.lookback().endedAt() + " (" + profile.lookback().samples() + " samples), session from "
                + profile.recording().startedAt() + ": hand-over gap " + Duration.between(profile.lookback().endedAt(),
                        profile.recording().startedAt()).toMillis() + " ms; notes " + profile.lookback().notes());
    }

    /**
     * A CPU-triggered session the shutdown cuts short (the starter calls {@code stopForShutdown()} when the context
     * stops) keeps its look-back part: the rise that triggered it is the evidence a restarted pod must not lose.
     */
    @Test
    void aSessionCutShortByShutdownKeepsTheRiseBeforeIt() throws Exception {
        Profile profile = runRiseThenTrigger(Duration.ofSeconds(10), true).profile();

        assertThat(profile.recording().notes().get(0)).startsWith(CpuProfiler.CUT_SHORT_BY_SHUTDOWN + ": recorded ")
                .endsWith(" of the 30 s planned");
        assertThat(profile.recording().duration()).isLessThan(Duration.ofSeconds(30));
        assertThat(profile.lookback()).isNotNull();
        assertThat(collapsed(ProfileView.of(LookbackView.ONLY).fullTree(profile))).contains("riseBeforeTheTrigger");
    }

    @Test
    void withLookbackOffTheRiseIsNotInTheProfile() throws Exception {
        Profile profile = runRiseThenTrigger(Duration.ZERO).profile();

        assertThat(profile.lookback()).isNull();
        assertThat(collapsed(ProfileView.of(LookbackView.INCLUDE).fullTree(profile))).contains("workWhileTheSessionRecords");
        assertThat(ProfileView.of(LookbackView.ONLY).fullTree(profile).totalSamples()).isZero();
    }

    @Test
    void anOnDemandProfileHasNoLookbackPartAndTheLookbackArmsAgainRightAfter() throws Exception {
        FakeCgroupV2Container container = FakeCgroupV2Container.create(root, "max 100000", "0-1");
        // A look-back of 3 s: it disarms after one look-back window of calm, which the end of this test waits for.
        CpuProfilerOptions o = fastOptions(Duration.ofSeconds(3));
        o.setThreshold(100); // never strictly above: no CPU-triggered session, but armed above 60%
        try (BusyContainer busy = new BusyContainer(container);
                DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).fsRoot(root)
                        .engines(List.of(new JfrExecutionEngine())).build()) {
            profiler.start();
            awaitLookback(profiler, CpuProfilerStatus.LookbackState.IDLE);
            busy.busy(true);
            awaitLookback(profiler, CpuProfilerStatus.LookbackState.ARMED);
            profiler.startOnDemand(Duration.ofSeconds(1));
            await().atMost(Duration.ofSeconds(30)).until(() -> profiler.store().latest().isPresent());
            Profile profile = profiler.store().latest().orElseThrow();
            assertThat(profile.trigger()).isEqualTo(SessionTrigger.MANUAL);
            assertThat(profile.lookback()).isNull();
            // No cooldown after an on-demand profile: still busy, the look-back arms again at once.
            awaitLookback(profiler, CpuProfilerStatus.LookbackState.ARMED);
            // Calm for a whole window: it disarms, stops JFR's recording and frees its ring.
            busy.busy(false);
            awaitLookback(profiler, CpuProfilerStatus.LookbackState.IDLE);
            assertThat(profiler.status().lookback().samples()).isZero();
            assertThat(profiler.status().lookback().reason()).contains("is not above the arming level 60.0%");
        }
    }

    private static void awaitLookback(DefaultCpuProfiler profiler, CpuProfilerStatus.LookbackState state) {
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> profiler.status().lookback().state() == state);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("look-back not " + state + ": " + profiler.status().lookback()
                    + "; session " + profiler.status().session(), e);
        }
    }

    private static CpuProfilerOptions fastOptions(Duration lookback) {
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setThreshold(50);
        o.setSamplingInterval(Duration.ofMillis(20));
        o.setRollingHistoryInterval(Duration.ofMillis(500));
        o.setAverageWindow(Duration.ofSeconds(2));
        o.setRollingHistorySize(Duration.ofSeconds(4));
        o.setPollingInterval(Duration.ofMillis(50));
        o.setDuration(Duration.ofSeconds(2));
        o.setStartupGrace(Duration.ZERO);
        o.setLookback(lookback);
        o.setLookbackSamplingPeriod(Duration.ofMillis(10));
        o.getReference().setEnabled(false); // no reference in the calm seconds: CpuProfilerReferenceTest has those
        return o;
    }

    /** The fake container's CPU counter, advancing at 95% of its 2 CPUs while busy, not at all otherwise. */
    private static final class BusyContainer implements AutoCloseable {
        private final AtomicBoolean busy = new AtomicBoolean();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread counter;

        BusyContainer(FakeCgroupV2Container container) {
            counter = new Thread(() -> {
                long usage = 0;
                long last = System.nanoTime();
                while (!stop.get()) {
                    long now = System.nanoTime();
                    usage += busy.get() ? (now - last) / 1000 * 19 / 10 : 0;
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
        }

        void busy(boolean b) {
            busy.set(b);
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            counter.join();
        }
    }

    private record Run(Profile profile, Instant armedSince) {
    }

    private Run runRiseThenTrigger(Duration lookback) throws Exception {
        return runRiseThenTrigger(lookback, false);
    }

    /** @param shutDownMidSession whether to stop the session for a shutdown (planned 30 s) once it has samples */
    private Run runRiseThenTrigger(Duration lookback, boolean shutDownMidSession) throws Exception {
        FakeCgroupV2Container container = FakeCgroupV2Container.create(root, "max 100000", "0-1");
        CpuProfilerOptions o = fastOptions(lookback);
        if (shutDownMidSession) {
            o.setDuration(Duration.ofSeconds(30));
        }
        try (BusyContainer busy = new BusyContainer(container);
                DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).fsRoot(root)
                        .engines(List.of(new JfrExecutionEngine())).build()) {
            assertThat(profiler.status().cpu().source()).isEqualTo("cgroup-v2");
            profiler.start();
            CpuProfilerStatus.LookbackState calm = lookback.isZero() ? CpuProfilerStatus.LookbackState.OFF : CpuProfilerStatus.LookbackState.IDLE;
            // The look-back starts on the profiler's start thread, after start() returned.
            await().atMost(Duration.ofSeconds(20)).until(() -> profiler.status().lookback().state() == calm);
            // Calm: the container's CPU stays at 0 while this JVM works; the look-back records none of it.
            long end = System.nanoTime() + Duration.ofMillis(1500).toNanos();
            while (System.nanoTime() < end) {
                workWhileCalm();
            }
            assertThat(profiler.status().lookback().state()).isEqualTo(calm);
            assertThat(profiler.status().lookback().samples()).isZero();

            // The rise: the container's CPU goes to 95% and stays there; the look-back arms, then the trigger fires.
            AtomicBoolean sessionRecords = new AtomicBoolean();
            AtomicBoolean working = new AtomicBoolean(true);
            Thread worker = new Thread(() -> {
                while (working.get()) {
                    if (sessionRecords.get()) {
                        workWhileTheSessionRecords();
                    } else {
                        riseBeforeTheTrigger();
                    }
                }
            }, "rising-worker");
            worker.start();
            Instant armedSince = null;
            busy.busy(true);
            try {
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (profiler.status().session() == null && profiler.store().latest().isEmpty()) {
                    if (armedSince == null) {
                        armedSince = profiler.status().lookback().armedSince();
                    }
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("no CPU-triggered session; status: " + profiler.status());
                    }
                    Thread.sleep(5);
                }
                sessionRecords.set(true);
                if (shutDownMidSession) {
                    await().atMost(Duration.ofSeconds(30)).until(() -> profiler.activeSession()
                            .filter(s -> s.samplesSoFar() > 0).isPresent());
                    profiler.stopForShutdown();
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> profiler.store().latest().isPresent());
            } finally {
                working.set(false);
                worker.join();
            }
            Profile profile = profiler.store().latest().orElseThrow();
            assertThat(profile.trigger()).isEqualTo(SessionTrigger.CPU);
            if (!lookback.isZero()) {
                assertThat(armedSince).as("armed before the trigger fired").isNotNull();
            }
            if (!lookback.isZero() && !shutDownMidSession) {
                // After the session it stays idle for the cooldown (4 h by default) less one window.
                awaitLookback(profiler, CpuProfilerStatus.LookbackState.IDLE);
                assertThat(profiler.status().lookback().armsFrom())
                        .isEqualTo(profiler.status().trigger().cooldownUntil().minus(lookback));
                assertThat(profiler.status().lookback().reason()).contains("cooldown");
            }
            return new Run(profile, armedSince);
        }
    }

    private void workWhileCalm() {
        sink += spin(20_000);
    }

    private void riseBeforeTheTrigger() {
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

    private static String collapsed(StackTreeSnapshot tree) {
        return Rendered.collapsed(tree);
    }

}
