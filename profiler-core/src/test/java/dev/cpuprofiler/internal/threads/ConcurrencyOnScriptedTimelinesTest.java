package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.ThreadCpu;
import dev.cpuprofiler.ConcurrencyReport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cpuprofiler.internal.testing.FakeTime;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The whole sampling path (reads, back-off, estimator) on threads whose running times are scripted exactly, with
 * ticks that jitter as on a real machine (10 ms ± 2 ms) and an arbitrary phase: the true ratios are known, with no
 * other load to blur them.
 */
class ConcurrencyOnScriptedTimelinesTest {

    private static final long MS = 1_000_000L;

    private final FakeTime time = new FakeTime();
    private final Map<Long, LongUnaryOperator> cpuAt = new LinkedHashMap<>(); // id -> (time -> CPU time)

    /** A thread running in [phase + k·period, phase + k·period + busy) for every k. */
    private void periodic(long id, long periodMs, long busyMs, long phaseMs) {
        long period = periodMs * MS;
        long busy = busyMs * MS;
        long phase = phaseMs * MS;
        cpuAt.put(id, t -> {
            long since = t - phase;
            if (since <= 0) {
                return 0;
            }
            return since / period * busy + Math.min(busy, since % period);
        });
    }

    private final ThreadCpuReader reader = new ThreadCpuReader() {
        @Override
        public boolean available() {
            return true;
        }

        @Override
        public long[] threadIds() {
            return cpuAt.keySet().stream().mapToLong(Long::longValue).toArray();
        }

        @Override
        public long[] cpuTimes(long[] ids) {
            long[] out = new long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                out[i] = cpuAt.get(ids[i]).applyAsLong(time.nanoTime());
            }
            return out;
        }

        @Override
        public String[] names(long[] ids) {
            String[] out = new String[ids.length];
            for (int i = 0; i < ids.length; i++) {
                out[i] = "t" + ids[i];
            }
            return out;
        }
    };

    private ConcurrencyReport sample(long seconds, long seed) {
        for (long id = 100; id < 400; id++) {
            cpuAt.put(id, t -> 0); // parked
        }
        ConcurrencyRun run = new ConcurrencyRun(reader, ConcurrencyRun.Tuning.DEFAULT, time, new long[0],
                id -> false, id -> null, 2);
        time.advance(Duration.ofMillis(1000 + seed)); // arbitrary phase against the ticks
        run.begin();
        Random jitter = new Random(seed);
        long end = time.nanoTime() + seconds * 1000 * MS;
        while (time.nanoTime() < end) {
            time.advance(Duration.ofNanos(8 * MS + jitter.nextInt((int) (4 * MS))));
            run.tick();
        }
        run.finalTick();
        return run.report(2);
    }

    @Test
    void twoThreadsBusyTogetherAQuarterOfTheTime() {
        periodic(1, 100, 25, 3);
        periodic(2, 100, 25, 3);
        for (long seed = 0; seed < 5; seed++) {
            ConcurrencyReport r = sample(10, seed);
            assertThat(r.utilization()).isCloseTo(0.25, within(0.01));
            assertThat(r.bottleneck()).isCloseTo(0.25, within(0.03));
            // The bounds hold the truth (0.25, give or take the part of a burst cut by the window's ends).
            assertThat(r.bottleneckLow()).isLessThanOrEqualTo(0.255);
            assertThat(r.bottleneckHigh()).isGreaterThanOrEqualTo(0.245);
        }
    }

    @Test
    void twoThreadsTakingTurnsOf20ms() {
        periodic(1, 40, 20, 0);
        periodic(2, 40, 20, 20);
        for (long seed = 0; seed < 5; seed++) {
            ConcurrencyReport r = sample(10, seed);
            assertThat(r.utilization()).isCloseTo(0.5, within(0.01));
            assertThat(r.bottleneck()).isCloseTo(1.0, within(0.03));
        }
    }

    @Test
    void oneThreadAlwaysBusy() {
        periodic(1, 10, 10, 0);
        ConcurrencyReport r = sample(10, 1);
        assertThat(r.utilization()).isCloseTo(0.5, within(0.01));
        assertThat(r.bottleneck()).isCloseTo(1.0, within(0.01));
    }

    @Test
    void turnsOf1msAreAmbiguousAndTheBoundsSaySo() {
        periodic(1, 2, 1, 0);
        periodic(2, 2, 1, 1);
        ConcurrencyReport r = sample(10, 2);
        assertThat(r.utilization()).isCloseTo(0.5, within(0.01));
        assertThat(r.bottleneck()).isCloseTo(0.75, within(0.03)); // independent halves; the truth is 1.0
        assertThat(r.bottleneckLow()).isCloseTo(0.5, within(0.03));
        assertThat(r.bottleneckHigh()).isCloseTo(1.0, within(0.01));
    }

    @Test
    void aThreadThatWakesLateIsFoundAndItsCpuKept() {
        periodic(1, 10, 10, 0); // always busy
        // Parked for 3 s, then a 500 ms burst, parked again: found at the next back-off re-check.
        cpuAt.put(2L, t -> Math.max(0, Math.min(t - 4_000 * MS, 500 * MS)));
        ConcurrencyReport r = sample(10, 3);
        assertThat(r.threads()).extracting(ThreadCpu::name).containsExactly("t1", "t2");
        assertThat(r.threads().get(1).cpuTime()).isEqualTo(Duration.ofMillis(500));
        assertThat(r.averageRunning()).isCloseTo(1.05, within(0.01));
        assertThat(r.bottleneck()).isCloseTo(1.0, within(0.01));
    }
}
