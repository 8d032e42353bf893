package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.ThreadCpu;
import dev.cpuprofiler.ConcurrencyReport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cpuprofiler.internal.testing.FakeTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;

/** Which threads a profile's fine ticks read, and what the report says, with scripted threads and time. */
class ConcurrencyRunTest {

    private static final long TICK = 10_000_000L;

    private final FakeThreadCpuReader threads = new FakeThreadCpuReader();
    private final FakeTime time = new FakeTime();
    private ConcurrencyRun run;

    private ConcurrencyRun run(long[] likelyActive, long... excluded) {
        return run(0, likelyActive, excluded);
    }

    private ConcurrencyRun run(int hold, long[] likelyActive, long... excluded) {
        return run(new ConcurrencyRun.Tuning(Duration.ofMillis(10), 8, hold, 5, 0.01), likelyActive, excluded);
    }

    private ConcurrencyRun run(ConcurrencyRun.Tuning settings, long[] likelyActive, long... excluded) {
        run = new ConcurrencyRun(threads, settings, time,
                likelyActive,
                id -> Arrays.stream(excluded).anyMatch(x -> x == id), id -> null, 2);
        run.begin();
        threads.takeCpuReads();
        return run;
    }

    /** Runs fine ticks; before each, {@code work} may burn CPU. Returns, per tick, the ids read. */
    private List<long[]> ticks(int n, IntConsumer work) {
        List<long[]> reads = new ArrayList<>();
        for (int t = 1; t <= n; t++) {
            work.accept(t);
            time.advance(Duration.ofNanos(TICK));
            run.tick();
            List<long[]> r = threads.takeCpuReads();
            reads.add(r.isEmpty() ? new long[0] : r.get(r.size() - 1));
        }
        return reads;
    }

    private static List<Integer> ticksReading(List<long[]> reads, long id) {
        List<Integer> r = new ArrayList<>();
        for (int i = 0; i < reads.size(); i++) {
            if (Arrays.stream(reads.get(i)).anyMatch(x -> x == id)) {
                r.add(i + 1);
            }
        }
        return r;
    }

    @Test
    void activeThreadsAreReadEveryTickAndTheRestStaggeredAtTheCap() {
        threads.start(1, "busy");
        for (long id = 10; id < 26; id++) {
            threads.start(id, "parked-" + id);
        }
        run(new long[] {1});
        List<long[]> reads = ticks(32, t -> threads.burn(1, TICK));
        assertThat(ticksReading(reads, 1)).hasSize(32);
        assertThat(ticksReading(reads, 10)).containsExactly(1, 9, 17, 25);
        assertThat(ticksReading(reads, 11)).containsExactly(2, 10, 18, 26);
        // 16 parked threads at a cap of 8: two a tick, plus the busy one.
        assertThat(reads).allSatisfy(r -> assertThat(r.length).isLessThanOrEqualTo(3));
    }

    @Test
    void aParkedThreadThatWakesIsReadEveryTickFromWhenItIsCaught() {
        threads.start(1, "sleeper");
        run(new long[0]);
        List<long[]> reads = ticks(30, t -> {
            if (t >= 4 && t <= 20) {
                threads.burn(1, TICK);
            }
        });
        // Due at tick 1 (stagger), then at the cap (9): caught, every tick until it idles (read at 21), then backs off.
        assertThat(ticksReading(reads, 1)).containsExactly(1, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23,
                27);
        ConcurrencyReport report = finish();
        assertThat(report.threads()).singleElement().satisfies(
                c -> assertThat(c.cpuTime()).isEqualTo(Duration.ofNanos(17 * TICK)));
        // Ticks 10..20 are exact; the 6 busy ticks (4..9) caught late at tick 9 are spread over ticks 2..9, where
        // they add to the upper bound only.
        assertThat(report.averageRunning()).isCloseTo(17.0 / 30, within(1e-6));
        assertThat(report.bottleneckLow()).isCloseTo(11.0 / 30, within(1e-6));
        assertThat(report.bottleneckHigh()).isCloseTo(17.0 / 30, within(1e-6));
    }

    @Test
    void aThreadWithShortPausesIsStillReadEveryTickSoItsBusyTimeCanBePlaced() {
        threads.start(1, "turn-taker");
        run(3, new long[] {1});
        // Busy 2 ticks, idle 2 ticks, over and over: the pauses are within the hold of 3 idle ticks.
        List<long[]> reads = ticks(24, t -> {
            if (t % 4 == 1 || t % 4 == 2) {
                threads.burn(1, TICK);
            }
        });
        assertThat(ticksReading(reads, 1)).hasSize(24);
        ConcurrencyReport report = finish();
        assertThat(report.bottleneckLow()).isCloseTo(0.5, within(1e-6));
        assertThat(report.bottleneck()).isCloseTo(0.5, within(1e-6));
    }

    @Test
    void lightThreadsAreFollowedAtBackOffAndKeepTheirCpuTime() {
        threads.start(1, "light");
        threads.start(2, "heavy");
        run(new ConcurrencyRun.Tuning(Duration.ofMillis(10), 8, 3, 5, 0.10), new long[] {1, 2});
        List<long[]> reads = ticks(40, t -> {
            threads.burn(1, TICK / 20); // 5% of every tick: under the 10% that keeps a thread read every tick
            threads.burn(2, TICK / 2);
        });
        // Held for 3 idle-looking reads, then 2, 4, 8 ticks apart.
        assertThat(ticksReading(reads, 1)).containsExactly(1, 2, 3, 4, 6, 10, 18, 26, 34);
        assertThat(ticksReading(reads, 2)).hasSize(40);
        ConcurrencyReport report = finish();
        assertThat(report.threads()).extracting(ThreadCpu::name).containsExactly("heavy", "light");
        assertThat(report.threads().get(1).cpuTime()).isEqualTo(Duration.ofNanos(40 * TICK / 20));
        assertThat(report.averageRunning()).isCloseTo(0.55, within(1e-6));
    }

    @Test
    void threadsStartedDuringTheProfileAreFoundAndCountedFromTheirStart() {
        threads.start(1, "main");
        run(new long[] {1});
        List<long[]> reads = ticks(12, t -> {
            if (t == 3) {
                threads.start(2, "late");
            }
            if (t >= 3) {
                threads.burn(2, TICK);
            }
        });
        // Listed every 5 ticks: found at 5, with the 3 ticks it burned before; every tick after.
        assertThat(ticksReading(reads, 2)).containsExactly(5, 6, 7, 8, 9, 10, 11, 12);
        ConcurrencyReport report = finish();
        assertThat(report.threads()).extracting(ThreadCpu::name).containsExactly("late");
        assertThat(report.threads().get(0).cpuTime()).isEqualTo(Duration.ofNanos(10 * TICK));
        assertThat(report.threads().get(0).label()).isEqualTo(ThreadCpu.Label.CPU_BOUND);
    }

    @Test
    void endedThreadsAreDroppedButKeepTheCpuTheyUsed() {
        threads.start(1, "short-lived");
        threads.start(2, "other");
        run(new long[] {1, 2});
        List<long[]> reads = ticks(12, t -> {
            if (t <= 4) {
                threads.burn(1, TICK);
            }
            if (t == 5) {
                threads.end(1);
            }
        });
        assertThat(ticksReading(reads, 1)).containsExactly(1, 2, 3, 4);
        ConcurrencyReport report = finish();
        assertThat(report.threads()).extracting(ThreadCpu::name).containsExactly("short-lived");
        assertThat(report.threads().get(0).cpuTime()).isEqualTo(Duration.ofNanos(4 * TICK));
        // Of one core over the whole profile (4 of 12 ticks), not of its own short life (which would say 100%).
        assertThat(report.threads().get(0).cpuPercent()).isCloseTo(100.0 * 4 / 12, org.assertj.core.data.Offset
                .offset(0.01));
        assertThat(report.threads().get(0).label()).isEqualTo(ThreadCpu.Label.MIXED);
        assertThat(report.threadsSeen()).isEqualTo(2);
    }

    @Test
    void theSamplersOwnThreadIsLeftOut() {
        threads.start(1, "app");
        threads.start(99, "cpuprofiler-concurrency");
        run(new long[] {1, 99}, 99);
        List<long[]> reads = ticks(10, t -> threads.burn(99, TICK / 10));
        assertThat(ticksReading(reads, 99)).isEmpty();
        assertThat(finish().bottleneck()).isZero();
    }

    @Test
    void oneThreadBusyOnTwoCpus() {
        threads.start(1, "busy");
        threads.start(2, "idle");
        run(new long[] {1});
        ticks(100, t -> threads.burn(1, TICK));
        ConcurrencyReport report = finish();
        assertThat(report.utilization()).isCloseTo(0.5, within(1e-6));
        assertThat(report.bottleneck()).isCloseTo(1, within(1e-6));
        assertThat(report.histogram()).containsExactly(new ConcurrencyReport.Bin(0, 0), new ConcurrencyReport.Bin(1, 1.0));
        assertThat(report.duration()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void tenThousandParkedThreadsCostAFewHundredReadsATickAndLeaveTheReportSmall() {
        threads.start(1, "busy-1");
        threads.start(2, "busy-2");
        for (long id = 10; id < 10_010; id++) {
            threads.start(id, "parked-" + id);
        }
        run(ConcurrencyRun.Tuning.DEFAULT, new long[] {1, 2});
        List<long[]> reads = ticks(300, t -> {
            threads.burn(1, TICK);
            threads.burn(2, TICK);
            if (t == 150) {
                for (long id = 10; id < 5_010; id++) {
                    threads.end(id);
                }
            }
        });
        // The busy two every tick; the crowd staggered at the 64-tick cap (10 000 / 64 = 157 a tick, half after
        // half of it ended), plus a listing every 25 ticks that reads the threads it finds.
        assertThat(ticksReading(reads, 1)).hasSize(300);
        double perTickBefore = reads.subList(100, 150).stream().mapToInt(r -> r.length).average().orElseThrow();
        double perTickAfter = reads.subList(250, 300).stream().mapToInt(r -> r.length).average().orElseThrow();
        assertThat(perTickBefore).isLessThan(2 + 10_000 / 64.0 + 10);
        assertThat(perTickAfter).isLessThan(2 + 5_000 / 64.0 + 10);

        ConcurrencyReport report = finish();
        assertThat(report.threadsSeen()).isEqualTo(10_002);
        assertThat(report.threads()).as("only threads that used CPU").extracting(ThreadCpu::name)
                .containsExactlyInAnyOrder("busy-1", "busy-2");
        assertThat(report.histogram()).as("never more bins than threads that can run at once, plus none")
                .hasSizeLessThanOrEqualTo(3);
        assertThat(report.utilization()).isCloseTo(1.0, within(1e-6));
        assertThat(report.bottleneck()).isCloseTo(1.0, within(1e-6));
    }

    private ConcurrencyReport finish() {
        run.finalTick(); // at the same instant as the last tick: a zero-length tick that only reads everyone
        return run.report(2);
    }
}
