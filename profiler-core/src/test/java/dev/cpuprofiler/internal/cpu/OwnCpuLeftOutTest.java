package dev.cpuprofiler.internal.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import dev.cpuprofiler.internal.baseline.RollingBaseline;
import dev.cpuprofiler.internal.testing.FakeCpuSource;
import dev.cpuprofiler.internal.testing.FakeTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sampler wired as in production: a rolling baseline (what the trigger judges) and the status chart's samples, with
 * the profiler's own CPU from scripted thread times and a scripted JIT, on fake time. The trigger sees the
 * application; what the status shows as the process's CPU stays what the counter measured.
 */
class OwnCpuLeftOutTest {

    private static final long SEC = 1_000_000_000L;

    private final FakeTime time = new FakeTime();
    private final FakeCpuSource counter = new FakeCpuSource();
    private final Map<Long, Long> threadCpu = new ConcurrentHashMap<>();
    private final AtomicLong jitMillis = new AtomicLong(50_000);
    private final OwnCpu own = new OwnCpu(ids -> {
        long[] out = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = threadCpu.getOrDefault(ids[i], -1L);
        }
        return out;
    }, jitMillis::get, time, Duration.ofSeconds(2));
    private final EffectiveCpuCount twoCpus = new EffectiveCpuCount(2, "test");
    private final CpuSampler sampler = new CpuSampler(counter, twoCpus, Duration.ofSeconds(1), Duration.ofSeconds(5),
            () -> false, own::cpuNanos, time, Thread::new);
    // One-second slots, a 3-s average: the trigger's view.
    private final RollingBaseline baseline = new RollingBaseline(Duration.ofMinutes(1), Duration.ofSeconds(1),
            Duration.ofSeconds(3), Duration.ofSeconds(1), twoCpus);
    private final RecentCpuSamples chart = new RecentCpuSamples(100);
    private final CountDownLatch release = new CountDownLatch(1);

    OwnCpuLeftOutTest() {
        sampler.addMeasuredListener(chart);
        sampler.addListener(baseline);
    }

    @AfterEach
    void releaseThreads() {
        release.countDown();
    }

    /** A thread the profiler made (its session thread, say), alive until the test ends. */
    private Thread profilerThread() throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        Thread t = own.accountable(Thread::new).newThread(() -> {
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.setDaemon(true);
        t.start();
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        return t;
    }

    /** {@code seconds} one-second ticks: the application uses {@code appNanos} a second, the profiler's thread too. */
    private void seconds(int seconds, long appNanos, Thread profiler, long profilerNanos, long jitMsPerSecond) {
        for (int i = 0; i < seconds; i++) {
            time.advance(Duration.ofSeconds(1));
            if (profiler != null) {
                threadCpu.merge(profiler.getId(), profilerNanos, Long::sum);
            }
            jitMillis.addAndGet(jitMsPerSecond);
            // The counter (process or cgroup) sees everything: the JIT's compiler threads included.
            counter.add(appNanos + profilerNanos + jitMsPerSecond * 1_000_000L);
            sampler.tick();
        }
    }

    private double average() {
        return baseline.average().orElseThrow();
    }

    @Test
    void theAverageLeavesOutWhatAProfilerThreadBurntWhileTheStatusShowsTheMeasuredCpu() throws Exception {
        Thread session = profilerThread();
        threadCpu.put(session.getId(), 0L);
        sampler.tick();
        long[] sessionStart = sampler.reading();
        // The application at 0.2 of a core (10% of 2 CPUs); the profiler's session thread parses at a whole core.
        seconds(5, SEC / 5, session, SEC, 0);

        assertThat(average()).as("the trigger's average").isCloseTo(10.0, offset(0.01));
        assertThat(sampler.latestPercent()).as("the status's CPU now").isCloseTo(60.0, offset(0.01));
        assertThat(sampler.percentSince(sessionStart)).as("a session's average").isCloseTo(60.0, offset(0.01));
        List<RecentCpuSamples.Sample> samples = chart.snapshot();
        assertThat(samples).hasSize(5).allSatisfy(s -> assertThat(s.percent()).isCloseTo(60.0, offset(0.01)));

        // The thread ends: what it burnt stays out, and nothing more comes off the application's CPU.
        release.countDown();
        session.join(10_000);
        threadCpu.clear();
        seconds(3, SEC / 2, null, 0, 0);
        assertThat(average()).isCloseTo(25.0, offset(0.01));
        assertThat(sampler.latestPercent()).isCloseTo(25.0, offset(0.01));
    }

    @Test
    void theAverageLeavesOutTheJitsWorkForTheProfilerAndKeepsTheApplicationsOwn() {
        sampler.tick();
        // A session launches and is stored: 400 ms of compilation a second for the profiler's code meanwhile.
        own.beginWork();
        seconds(2, SEC / 10, null, 0, 400);
        own.endWork();
        // The JIT's burst right after the profile is stored is the profiler's too, for the settle.
        seconds(2, SEC / 10, null, 0, 400);
        assertThat(average()).as("application alone: 0.1 of a core").isCloseTo(5.0, offset(0.01));
        assertThat(sampler.latestPercent()).as("measured: 0.5 of a core").isCloseTo(25.0, offset(0.01));

        // After the settle the JIT compiles the application's code: that is the application's CPU.
        seconds(3, SEC / 10, null, 0, 400);
        assertThat(average()).isCloseTo(25.0, offset(0.01));
    }

    @Test
    void aCounterThatMovesInTenMillisecondStepsAddsNothingToAnIdleApplication() throws Exception {
        // The process's counter (times(2), in clock ticks) moves in 10-ms steps. Ticks every 100 ms, the profiler's
        // session thread at a whole core, the application idle, half a CPU: each tick the counter is up to 10 ms off,
        // 20% of the half CPU, and a tick that drops what it is behind counts what it is ahead as the application's.
        EffectiveCpuCount halfCpu = new EffectiveCpuCount(0.5, "test");
        CpuSampler fine = new CpuSampler(counter, halfCpu, Duration.ofMillis(100), Duration.ofMillis(100), () -> true,
                own::cpuNanos, time, Thread::new);
        RollingBaseline trigger = new RollingBaseline(Duration.ofMinutes(1), Duration.ofMillis(500),
                Duration.ofSeconds(2), Duration.ofMillis(100), halfCpu);
        fine.addListener(trigger);
        Thread session = profilerThread();
        threadCpu.put(session.getId(), 0L);
        long trueCpu = 0;
        long sessionCpu = 0;
        fine.tick();
        for (int i = 1; i <= 40; i++) {
            time.advance(Duration.ofMillis(100));
            // Uneven shares of the tick, as a scheduler gives them.
            long profilerShare = i % 3 == 0 ? 93_000_000L : 103_500_000L;
            sessionCpu += profilerShare;
            trueCpu += profilerShare;
            threadCpu.put(session.getId(), sessionCpu);
            counter.set(trueCpu / 10_000_000L * 10_000_000L);
            fine.tick();
        }
        // Within one counter step over the 2-s window (1%); a sampler that dropped them would say about 5%.
        assertThat(trigger.average().orElseThrow()).isLessThan(1.0);
        assertThat(fine.latestPercent()).as("measured: a whole core, all of half a CPU").isEqualTo(100.0);
    }

    @Test
    void moreOwnCpuThanTheCounterSawCountsAsNoApplicationCpuNotLessThanNone() throws Exception {
        Thread session = profilerThread();
        threadCpu.put(session.getId(), 0L);
        sampler.tick();
        for (int i = 0; i < 3; i++) {
            time.advance(Duration.ofSeconds(1));
            // The thread's clock ran ahead of the counter's last update (cgroup counters lag a little).
            threadCpu.merge(session.getId(), SEC, Long::sum);
            counter.add(SEC / 2);
            sampler.tick();
        }
        assertThat(average()).isZero();
        assertThat(sampler.latestPercent()).isCloseTo(25.0, offset(0.01));
    }
}
