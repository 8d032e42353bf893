package dev.cpuprofiler.internal.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.internal.testing.FakeCpuSource;
import dev.cpuprofiler.internal.testing.FakeTime;
import dev.cpuprofiler.internal.testing.LogCapture;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class CpuSamplerTest {

    private final FakeTime time = new FakeTime();
    private final FakeCpuSource source = new FakeCpuSource();

    private CpuSampler sampler(double cpus) {
        return new CpuSampler(source, new EffectiveCpuCount(cpus, "test"), Duration.ofSeconds(1), time, Thread::new);
    }

    @Test
    void firstTickOnlyTakesASnapshot() {
        CpuSampler sampler = sampler(2);
        source.set(5_000_000_000L); // whatever the process used before: not this interval's
        sampler.tick();
        assertThat(sampler.latestPercent()).isNaN();
    }

    @Test
    void percentIsCpuDeltaOverWallTimesEffectiveCpus() {
        CpuSampler sampler = sampler(1.5);
        sampler.tick();
        source.add(1_000_000_000L); // one core busy for one second
        time.advance(Duration.ofSeconds(1));
        sampler.tick();
        assertThat(sampler.latestPercent()).isCloseTo(66.667, offset(0.01));
    }

    @Test
    void aReadingIsTakenFromTheCounterAtTheCallNotAtTheLastTick() {
        CpuSampler sampler = sampler(2);
        assertThat(sampler.reading()).as("before the first tick").isNull();
        sampler.tick();
        source.add(1_000_000_000L);
        time.advance(Duration.ofSeconds(1));
        sampler.tick();
        long lastTick = time.nanoTime();
        // Calm ticks come every quiet interval (5 s by default): a session starting between two must not count the
        // seconds since the last one.
        time.advance(Duration.ofSeconds(4));
        source.add(500_000_000L);
        long[] start = sampler.reading();
        assertThat(start).containsExactly(time.nanoTime(), 1_500_000_000L);
        source.add(2_000_000_000L);  // one core for the session's one second
        time.advance(Duration.ofSeconds(1));
        assertThat(sampler.percentSince(start)).isCloseTo(100.0, offset(0.01));

        source.failWith(new IOException("cpu.stat: No such device"));
        assertThat(sampler.reading()).as("unreadable: the last tick's").containsExactly(lastTick, 1_000_000_000L);
        source.failWith(null);
        source.set(1_000L);  // the counter went backwards (a new cgroup): the last tick's too
        assertThat(sampler.reading()[1]).isEqualTo(1_000_000_000L);
    }

    @Test
    void percentIsClampedToOneHundred() {
        CpuSampler sampler = sampler(1);
        sampler.tick();
        source.add(3_000_000_000L);
        time.advance(Duration.ofSeconds(1));
        sampler.tick();
        assertThat(sampler.latestPercent()).isEqualTo(100.0);
    }

    @Test
    void counterGoingBackwardsGivesZeroNotANegativeOrAbsurdFigure() {
        CpuSampler sampler = sampler(2);
        List<Long> cumulative = new ArrayList<>();
        sampler.addListener((t, cpu, p) -> cumulative.add(cpu));
        source.set(900_000_000_000L);
        sampler.tick();
        source.set(1_000_000L); // container restarted: a new cgroup counts from zero
        time.advance(Duration.ofSeconds(1));
        sampler.tick();
        assertThat(sampler.latestPercent()).isEqualTo(0.0);
        source.add(1_000_000_000L);
        time.advance(Duration.ofSeconds(1));
        sampler.tick();
        assertThat(sampler.latestPercent()).isCloseTo(50.0, offset(0.001));
        // Listeners see a counter that never goes backwards.
        assertThat(cumulative).isSorted();
    }

    @Test
    void failedReadIsLoggedOnceAndRetriedNextTick() {
        CpuSampler sampler = sampler(2);
        try (LogCapture logs = new LogCapture()) {
            sampler.tick();
            source.failWith(new IOException("cpu.stat: No such device"));
            for (int i = 0; i < 10; i++) {
                time.advance(Duration.ofSeconds(1));
                sampler.tick();
            }
            assertThat(logs.messages(Level.WARN)).hasSize(1).first().asString().contains("No such device");
            assertThat(sampler.failedReads()).isEqualTo(10);

            source.failWith(null);
            source.add(1_000_000_000L);
            time.advance(Duration.ofSeconds(1));
            sampler.tick();
            // The delta spans the whole outage: still the true average, not a spike.
            assertThat(sampler.latestPercent()).isCloseTo(100.0 / 11 / 2, offset(0.01));
            assertThat(logs.messages(Level.INFO)).anyMatch(m -> m.contains("readable again after 10 failed reads"));

            // The cgroup directory is removed, and recreated a few seconds later: its usage restarts near zero.
            long samplesBefore = sampler.samples();
            source.failWith(new IOException("CPU counter file does not exist: cpu.stat"));
            for (int i = 0; i < 3; i++) {
                time.advance(Duration.ofSeconds(1));
                sampler.tick();
            }
            source.failWith(null);
            source.set(200_000_000L);
            time.advance(Duration.ofSeconds(1));
            sampler.tick();
            assertThat(sampler.latestPercent()).as("the interval across the reset").isEqualTo(0.0);
            source.add(1_000_000_000L);
            time.advance(Duration.ofSeconds(1));
            sampler.tick();
            assertThat(sampler.latestPercent()).isCloseTo(50.0, offset(0.001));
            assertThat(sampler.samples()).isEqualTo(samplesBefore + 2);
            // Once per outage, not once per failed read.
            assertThat(logs.messages(Level.WARN)).hasSize(2);
            assertThat(logs.messages(Level.WARN).get(1)).contains("does not exist");
        }
    }

    @Test
    void logsEachSampleAtDebug() {
        CpuSampler sampler = sampler(2);
        try (LogCapture logs = new LogCapture()) {
            sampler.tick();
            source.add(500_000_000L);
            time.advance(Duration.ofSeconds(1));
            sampler.tick();
            assertThat(logs.messages(Level.DEBUG)).contains("CPU sample (cgroup): 25.0%");
        }
    }

    @Test
    void runsOnItsOwnDaemonThreadSurvivesFailuresAndStopsPromptlyOnClose() {
        AtomicReference<Thread> thread = new AtomicReference<>();
        AtomicInteger ticks = new AtomicInteger();
        List<String> threadNames = new CopyOnWriteArrayList<>();
        CpuSampler sampler = new CpuSampler(source, new EffectiveCpuCount(2, "test"), Duration.ofMillis(10),
                Ticker.system(), r -> {
                    Thread t = new Thread(r, "cpuprofiler-sampler");
                    t.setDaemon(true);
                    thread.set(t);
                    return t;
                });
        sampler.addListener((t, cpu, p) -> {
            threadNames.add(Thread.currentThread().getName());
            if (ticks.incrementAndGet() % 3 == 0) {
                throw new IllegalStateException("listener bug");
            }
        });
        sampler.addListener((t, cpu, p) -> {
            throw new OutOfMemoryError("pretend");
        });
        sampler.start();
        source.failWith(new IOException("transient"));
        await().atMost(Duration.ofSeconds(10)).until(() -> sampler.failedReads() >= 3);
        source.failWith(null);
        await().atMost(Duration.ofSeconds(10)).until(() -> ticks.get() >= 10);

        assertThat(thread.get().isDaemon()).isTrue();
        assertThat(threadNames).containsOnly("cpuprofiler-sampler");
        long before = System.nanoTime();
        sampler.close();
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(2));
        await().atMost(Duration.ofSeconds(2)).until(() -> !thread.get().isAlive());
        assertThat(source.closed()).isTrue();
    }

    @Test
    void aTickThatOverrunsManyIntervalsIsFollowedByOneTickNotABurst() {
        Duration interval = Duration.ofMillis(20);
        List<Long> sampleTimes = new CopyOnWriteArrayList<>();
        CountDownLatch stalled = new CountDownLatch(1);
        CpuSampler sampler = new CpuSampler(source, new EffectiveCpuCount(2, "test"), interval, Ticker.system(),
                Thread::new);
        sampler.addListener((t, cpu, p) -> {
            sampleTimes.add(t);
            if (sampleTimes.size() == 3) {
                // A listener held up for 25 intervals (a GC pause, a suspended VM).
                LockSupport.parkNanos(interval.multipliedBy(25).toNanos());
                stalled.countDown();
            }
        });
        try {
            sampler.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> stalled.getCount() == 0 && sampleTimes.size() >= 8);
        } finally {
            sampler.close();
        }
        // The stalled tick ended 25 intervals late; a burst would fire the missed ticks one after another,
        // each measuring CPU over next to no wall time. Only the next deadline's tick may come within one interval.
        long stallEnd = sampleTimes.get(2) + interval.multipliedBy(25).toNanos();
        long soon = sampleTimes.stream().filter(t -> t >= stallEnd && t < stallEnd + interval.toNanos()).count();
        assertThat(soon).isLessThanOrEqualTo(2);
    }

    /**
     * The gaps between the sampler thread's first {@code n} ticks, the process using {@code coreShare} of one core
     * (the counter grows by that share of the wall time between ticks).
     */
    private List<Long> tickGaps(int n, double coreShare, java.util.function.BooleanSupplier fullRate) {
        return tickGaps(n, coreShare, 0, fullRate);
    }

    /** As above, {@code ownShare} of one core of it the profiler's own. */
    private List<Long> tickGaps(int n, double coreShare, double ownShare, java.util.function.BooleanSupplier fullRate) {
        List<Long> times = new CopyOnWriteArrayList<>();
        AtomicLong own = new AtomicLong();
        CpuSampler sampler = new CpuSampler(source, new EffectiveCpuCount(2, "test"), Duration.ofMillis(10),
                Duration.ofMillis(300), fullRate, own::get, Ticker.system(), Thread::new);
        sampler.addListener((t, cpu, p) -> {
            if (!times.isEmpty()) {
                long wall = t - times.get(times.size() - 1);
                source.add((long) (wall * coreShare));
                own.addAndGet((long) (wall * ownShare));
            }
            times.add(t);
        });
        try {
            sampler.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> times.size() >= n);
        } finally {
            sampler.close();
        }
        List<Long> gaps = new ArrayList<>();
        for (int i = 3; i < n; i++) { // the counter grows from the second tick on, so the third measures it
            gaps.add(times.get(i) - times.get(i - 1));
        }
        return gaps;
    }

    @Test
    void aCalmProcessIsSampledAtTheQuietIntervalABusyOneOrARecordingOneEveryInterval() {
        // Deadlines are never early, so a calm gap is the quiet interval or more however loaded the machine is (less
        // only by the jitter of the moment a tick reads its time: microseconds, far from the 10 ms interval).
        assertThat(tickGaps(7, 0.05, () -> false)).as("calm: 5% of a core, under a tenth")
                .allSatisfy(gap -> assertThat(gap).isGreaterThan(Duration.ofMillis(250).toNanos()));
        // A busy or recording process is sampled every 10 ms; most gaps are far below 300 ms even on a loaded machine.
        assertThat(median(tickGaps(13, 0.2, () -> false))).as("busy: a fifth of a core")
                .isLessThan(Duration.ofMillis(150).toNanos());
        assertThat(median(tickGaps(13, 0.0, () -> true))).as("idle, but a recording holds the engine lock")
                .isLessThan(Duration.ofMillis(150).toNanos());
    }

    @Test
    void calmIsJudgedByTheApplicationsCpuNotTheProfilersOwnWork() {
        // A fifth of a core, all but 5% of one core the profiler's own (its parse after a session): calm.
        assertThat(tickGaps(7, 0.2, 0.15, () -> false)).as("the application at 5% of a core")
                .allSatisfy(gap -> assertThat(gap).isGreaterThan(Duration.ofMillis(250).toNanos()));
    }

    @Test
    void listenersAreToldTheApplicationsCpuAndMeasuredListenersWhatTheCounterMeasured() {
        AtomicLong own = new AtomicLong();
        CpuSampler sampler = new CpuSampler(source, new EffectiveCpuCount(2, "test"), Duration.ofSeconds(1),
                Duration.ofSeconds(1), () -> true, own::get, time, Thread::new);
        List<double[]> application = new ArrayList<>();
        List<double[]> measured = new ArrayList<>();
        sampler.addListener((t, cpu, p) -> application.add(new double[] {cpu, p}));
        sampler.addMeasuredListener((t, cpu, p) -> measured.add(new double[] {cpu, p}));
        own.set(7_000_000_000L); // what the profiler used before the first tick is no part of any interval
        sampler.tick();
        source.add(1_500_000_000L);
        own.addAndGet(500_000_000L);
        time.advance(Duration.ofSeconds(1));
        sampler.tick();
        assertThat(application.get(1)).containsExactly(1.0e9, 50.0);
        assertThat(measured.get(1)).containsExactly(1.5e9, 75.0);
        assertThat(sampler.latestPercent()).isEqualTo(75.0);

        // An own reading that fails leaves nothing out of that tick; what it missed comes off the next one.
        source.add(1_000_000_000L);
        own.set(-1);
        time.advance(Duration.ofSeconds(1));
        sampler.tick();
        assertThat(application.get(2)).containsExactly(2.0e9, 50.0);
        source.add(1_000_000_000L);
        own.set(8_000_000_000L);
        time.advance(Duration.ofSeconds(1));
        sampler.tick();
        assertThat(application.get(3)).containsExactly(2.5e9, 25.0);
        assertThat(measured.get(3)).containsExactly(3.5e9, 50.0);
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }
}
