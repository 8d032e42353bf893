package dev.cpuprofiler.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.internal.stack.HotMethods;
import dev.cpuprofiler.internal.testing.LogCapture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The saturation trigger with real threads, the real process CPU and real per-thread CPU time, on this 2-CPU machine:
 * one thread pinned at a core (the process at about 50%, under an 80% CPU threshold) is profiled as SATURATION; two
 * threads at half a core each, the same process CPU, are not. The saturation threshold here is 75% of a core, not the
 * default 90%: measured in 8 runs on this machine, the spinning thread's average when the trigger fired was
 * 92.5–99.7% of a core over 2-3 s windows (the process at 51.9–57.5%), a half-busy thread's (5 ms of work, 5 ms of
 * sleep) 47.7–49.5%.
 * On a machine so busy that a spinning thread gets less than the threshold, the pinned case cannot be judged: it is
 * skipped, with the share the thread got printed.
 */
class SaturationTriggerTest {

    private static final Duration WINDOW = Duration.ofSeconds(2);
    private static final double SATURATION_THRESHOLD = 75;

    @BeforeAll
    static void needsTwoCpus() {
        int cpus = Runtime.getRuntime().availableProcessors();
        if (cpus < 2) {
            System.out.println("SaturationTriggerTest skipped: one pinned thread is the whole of a 1-CPU machine");
        }
        Assumptions.assumeTrue(cpus >= 2, "one pinned thread is the whole of a 1-CPU machine");
    }

    private static CpuProfilerOptions options() {
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setSource(CpuSourceMode.PROCESS);
        o.setThreshold(80);
        o.setSamplingInterval(Duration.ofMillis(250));
        o.setRollingHistoryInterval(Duration.ofSeconds(1));
        o.setAverageWindow(Duration.ofSeconds(2));
        o.setRollingHistorySize(Duration.ofSeconds(20));
        o.setPollingInterval(Duration.ofMillis(100));
        o.setDuration(Duration.ofSeconds(2));
        o.setStartupGrace(Duration.ZERO);
        o.setCooldown(Duration.ofHours(1));
        o.setLookback(Duration.ofSeconds(5));
        o.getReference().setEnabled(false); // no reference in the calm seconds: CpuProfilerReferenceTest has those
        o.getSaturation().setThreshold(SATURATION_THRESHOLD);
        o.getSaturation().setWindow(WINDOW);
        return o;
    }

    @Test
    void onePinnedThreadIsProfiledAsSaturationWithItsHotMethodAndNotAgainDuringTheCooldown() throws Exception {
        try (Burners pinned = new Burners("pinned-worker", 1, 1.0);
                LogCapture logs = new LogCapture();
                DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options()).build()) {
            profiler.start();
            pinned.awaitProfileOrSkip(profiler, Duration.ofSeconds(30));
            Profile p = profiler.store().latest().orElseThrow();

            System.out.printf("[saturation] pinned: %.1f%% of a core over %s, process CPU %.1f%%%n",
                    p.saturation() == null ? Double.NaN : p.saturation().percentOfCore(), WINDOW, p.cpu().percent());
            assertThat(p.trigger()).isEqualTo(SessionTrigger.SATURATION);
            assertThat(p.saturation()).isNotNull();
            assertThat(p.saturation().thread()).isEqualTo("pinned-worker-0");
            assertThat(p.saturation().percentOfCore()).isGreaterThanOrEqualTo(SATURATION_THRESHOLD);
            assertThat(p.saturation().window()).isEqualTo(WINDOW);
            assertThat(p.cpu().percent()).as("the process's CPU stayed under the 80% trigger").isLessThan(80.0);
            // The thread's own stacks: its hot method, nothing of other threads.
            assertThat(HotMethods.of(p.saturation().tree(), 1)).extracting(HotMethods.Method::method)
                    .singleElement().asString().endsWith("Burners.burn");
            assertThat(p.lookback()).as("a pinned thread arms the look-back below the CPU arming level").isNotNull();
            assertThat(logs.messages()).anyMatch(m -> m.startsWith("Thread 'pinned-worker-0' used")
                    && m.contains("starting a SATURATION-triggered profiling session"));

            // Its formats: JSON names the thread; text opens on its stacks; thread=all has every thread's.
            String json = new String(ProfileFormat.JSON.bytes(p, ProfileView.FULL), StandardCharsets.UTF_8);
            assertThat(json).contains("\"trigger\":\"SATURATION\"", "\"saturation\":{\"thread\":\"pinned-worker-0\"",
                    "\"window\":\"PT2S\"");
            ProfileView offered = ProfileView.of(LookbackView.INCLUDE).ofThread(null, p, ProfileFormat.TEXT);
            assertThat(offered.thread()).isEqualTo("pinned-worker-0");
            assertThat(new String(ProfileFormat.TEXT.bytes(p, offered), StandardCharsets.UTF_8))
                    .contains("Saturation: thread 'pinned-worker-0' used", "below, its own stacks").contains("burn");
            assertThat(offered.fullTree(p).totalSamples()).isLessThan(ProfileView.FULL.fullTree(p).totalSamples());

            // Still pinned, but in the cooldown: no second profile.
            CpuProfilerStatus status = profiler.status();
            assertThat(status.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
            assertThat(status.saturation().thread()).isEqualTo("pinned-worker-0");
            // (Whether it reads pinned at one instant depends on what else ran in the last 2 s, the session's own
            // parsing included: the status's aboveFor is checked where nothing else runs, saturationEnabledFalse....)
            // A whole window and a second: long enough for the still pinned thread to fill a window again.
            Thread.sleep(WINDOW.toMillis() + 1000);
            assertThat(profiler.status().state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
            assertThat(profiler.store().size()).isEqualTo(1);
        }
    }

    @Test
    void twoHalfBusyThreadsWithTheSameProcessCpuTriggerNothing() throws Exception {
        try (Burners halves = new Burners("half-worker", 2, 0.5);
                DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options()).build()) {
            profiler.start();
            Thread.sleep(WINDOW.toMillis() + 1000); // a whole window of the half-busy threads, and a second
            CpuProfilerStatus s = profiler.status();
            System.out.printf("[saturation] half-busy: hottest %s at %s%% of a core%n", s.saturation().thread(),
                    s.saturation().percentOfCore());
            assertThat(s.saturation().thread()).startsWith("half-worker-");
            // Above 10: the half-busy threads were measured at all (about 50 on a quiet machine; 18.8 in a clean-clone
            // CI run beside another build, where a thread gets less than its half). Below the threshold: nothing fires.
            assertThat(s.saturation().percentOfCore()).isBetween(10.0, SATURATION_THRESHOLD);
            assertThat(s.saturation().aboveFor()).isNull();
            assertThat(profiler.store().size()).isZero();
            assertThat(s.state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
        }
    }

    @Test
    void aPinnedThreadThatEndsBeforeTheWindowDoesNotTrigger() throws Exception {
        try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options()).build()) {
            profiler.start();
            try (Burners shortLived = new Burners("short-worker", 1, 1.0)) {
                Thread.sleep(WINDOW.toMillis() * 2 / 3);
            }
            Thread.sleep(WINDOW.toMillis() + 1000);
            assertThat(profiler.store().size()).isZero();
            assertThat(profiler.status().state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
        }
    }

    @Test
    void saturationEnabledFalseTurnsItOffButTheStatusStillShowsThePinnedThread() throws Exception {
        CpuProfilerOptions o = options();
        o.getSaturation().setEnabled(false);
        try (Burners pinned = new Burners("pinned-off", 1, 1.0);
                DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).build()) {
            profiler.start();
            pinned.awaitOrSkip(() -> profiler.status().saturation().aboveFor() != null, Duration.ofSeconds(20));
            Thread.sleep(1000);
            CpuProfilerStatus s = profiler.status();
            assertThat(s.saturation().enabled()).isFalse();
            assertThat(s.saturation().thread()).isEqualTo("pinned-off-0");
            assertThat(profiler.store().size()).isZero();
        }
    }

    /** Threads that burn CPU in {@link #burn} for a share of each 10 ms: 1.0 pinned, 0.5 half a core. */
    static final class Burners implements AutoCloseable {

        private final AtomicBoolean running = new AtomicBoolean(true);
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicLong sink = new AtomicLong();
        private final long startedNanos = System.nanoTime();

        Burners(String name, int count, double share) {
            for (int i = 0; i < count; i++) {
                Thread t = new Thread(() -> run(share), name + "-" + i);
                t.setDaemon(true);
                t.start();
                threads.add(t);
            }
        }

        private void run(double share) {
            long x = 1;
            long busyNanos = (long) (TimeUnit.MILLISECONDS.toNanos(10) * share);
            while (running.get()) {
                long until = System.nanoTime() + busyNanos;
                while (System.nanoTime() < until) {
                    x = burn(x);
                }
                if (share < 1) {
                    try {
                        Thread.sleep(10 - busyNanos / 1_000_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
            sink.addAndGet(x);
        }

        /** Waits for the profiler's first profile; skips when the machine left the burner below the threshold. */
        void awaitProfileOrSkip(DefaultCpuProfiler profiler, Duration atMost) throws InterruptedException {
            awaitOrSkip(() -> profiler.store().size() >= 1, atMost);
        }

        void awaitOrSkip(java.util.function.BooleanSupplier condition, Duration atMost) throws InterruptedException {
            long deadline = System.nanoTime() + atMost.toNanos();
            while (!condition.getAsBoolean()) {
                if (System.nanoTime() > deadline) {
                    double share = share();
                    if (share < SATURATION_THRESHOLD + 5) {
                        System.out.printf("SaturationTriggerTest skipped: the machine is too busy, the spinning thread "
                                + "got %.1f%% of a core%n", share);
                        Assumptions.abort("the machine is too busy: the spinning thread got " + share + "% of a core");
                    }
                    throw new AssertionError("no profile within " + atMost + " although the thread got " + share
                            + "% of a core");
                }
                Thread.sleep(50);
            }
        }

        /** The first burner's CPU since it started, percent of one core. */
        double share() {
            long cpu = java.lang.management.ManagementFactory.getThreadMXBean().getThreadCpuTime(threads.get(0)
                    .getId());
            return 100.0 * cpu / Math.max(1, System.nanoTime() - startedNanos);
        }

        static long burn(long x) {
            for (int i = 0; i < 2_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            return x;
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(10));
            }
        }
    }
}
