package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.ThreadCpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ThreadCpuTrackerTest {

    private static final long SECOND = 1_000_000_000L;

    private final FakeThreadCpuReader threads = new FakeThreadCpuReader();
    private final ThreadCpuTracker tracker = new ThreadCpuTracker(threads, new CpuProfilerOptions());
    private long now;
    private int tick;

    /** Runs ticks 1 s apart; before each, {@code work} may burn CPU or start/end threads. Returns ticks reading id. */
    private List<Integer> run(int ticks, long id, IntConsumer work) {
        List<Integer> readAt = new ArrayList<>();
        for (int i = 0; i < ticks; i++) {
            tick++;
            work.accept(tick);
            now += SECOND;
            threads.takeCpuReads();
            tracker.onSample(now, 0, Double.NaN);
            if (threads.lastReadIncluded(id)) {
                readAt.add(tick);
            }
        }
        return readAt;
    }

    @Test
    void aThreadPinnedForTheWholeSaturationWindowIsSaturatedAndOneSeenForLessIsNot() {
        threads.start(1, "event-loop-1");
        threads.start(2, "half-busy");
        threads.start(3, "cpuprofiler-session");
        // 59 ticks: pinned, but not yet read over a whole 60-s window.
        run(59, 1, t -> {
            threads.burn(1, SECOND);
            threads.burn(2, SECOND / 2);
            threads.burn(3, SECOND);
        });
        SaturationReading young = tracker.saturation().orElseThrow();
        assertThat(young.thread()).isEqualTo("event-loop-1");
        assertThat(young.percentOfCore()).isEqualTo(100.0);
        assertThat(young.saturated()).as("seen for less than the window").isFalse();
        // First read at tick 1 (1 s): its reads span a whole window from tick 61 (61 s) on, so at tick 70 it has
        // been pinned for 9 s. The profiler's own thread, as busy, never counts.
        run(11, 1, t -> {
            threads.burn(1, SECOND);
            threads.burn(2, SECOND / 2);
            threads.burn(3, SECOND);
        });
        SaturationReading pinned = tracker.saturation().orElseThrow();
        assertThat(pinned.thread()).isEqualTo("event-loop-1");
        assertThat(pinned.saturated()).isTrue();
        assertThat(pinned.aboveFor()).isEqualTo(Duration.ofSeconds(9));
        assertThat(tracker.hottestTickPercent()).isEqualTo(100.0);
        // It goes idle: the half-busy thread is the hottest now, and not pinned.
        run(5, 2, t -> threads.burn(2, SECOND / 2));
        SaturationReading after = tracker.saturation().orElseThrow();
        assertThat(after.thread()).isEqualTo("half-busy");
        assertThat(after.percentOfCore()).isCloseTo(50.0, org.assertj.core.data.Offset.offset(0.5));
        assertThat(after.saturated()).isFalse();
        // The whole process quiet: nothing active, nothing to report.
        now += SECOND;
        tracker.onSample(now, 0, Double.NaN);
        tracker.onSample(now + SECOND, 0, 0.0);
        tracker.onSample(now + 2 * SECOND, 0, 0.0);
        assertThat(tracker.saturation()).isEmpty();
    }

    @Test
    void anIdleThreadIsReadAtTicks1_2_4_8AndThenEvery32() {
        threads.start(1, "parked");
        assertThat(run(200, 1, t -> { })).containsExactly(1, 2, 4, 8, 16, 32, 64, 96, 128, 160, 192);
    }

    @Test
    void aThreadThatWakesUpIsReadEveryTickAgainAndBacksOffWhenItSleeps() {
        threads.start(1, "worker");
        List<Integer> reads = run(60, 1, t -> {
            if (t >= 20 && t < 40) {
                threads.burn(1, SECOND / 2);
            }
        });
        // Idle: 1, 2, 4, 8, 16; busy in the seconds before ticks 20..39, caught at 32 (all it used since 16 shows
        // up), then read every tick; the read at 40 sees an idle second, so 42, 46, 54.
        assertThat(reads).containsExactly(1, 2, 4, 8, 16, 32, 33, 34, 35, 36, 37, 38, 39, 40, 42, 46, 54);
    }

    @ParameterizedTest(name = "{0} parked threads")
    @ValueSource(ints = {500, 10_000})
    void manyParkedThreadsCostAFewReadsPerTickAndAreForgottenWhenTheyEnd(int parked) {
        for (long id = 1; id <= parked; id++) {
            threads.start(id, "parked-" + id);
        }
        long busy = parked + 1;
        threads.start(busy, "busy");
        run(300, busy, t -> threads.burn(busy, SECOND));
        // Past the start-up doubling, idle threads at a 32-tick cap cost about parked/32 reads a tick.
        List<Integer> perTick = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            now += SECOND;
            threads.burn(busy, SECOND);
            threads.takeCpuReads();
            tracker.onSample(now, 0, Double.NaN);
            perTick.add((int) tracker.lastTickReads());
        }
        assertThat(perTick.stream().mapToInt(Integer::intValue).average().orElseThrow())
                .isLessThan(1 + parked / 32.0 + 1);
        assertThat(tracker.activeThreadIds()).containsExactly(busy);
        assertThat(tracker.trackedThreads()).isEqualTo(parked + 1);
        assertThat(tracker.top(10)).extracting(ThreadCpu::name).containsExactly("busy");
        // Names are read for the thread that uses CPU, never for the parked crowd.
        assertThat(threads.nameReads()).allSatisfy(ids -> assertThat(ids).containsOnly(busy));

        // The crowd ends: nothing of it is kept, and the busy thread is still followed every tick.
        for (long id = 1; id <= parked; id++) {
            threads.end(id);
        }
        assertThat(run(40, busy, t -> threads.burn(busy, SECOND))).hasSize(40);
        assertThat(tracker.trackedThreads()).isEqualTo(1);
        assertThat(tracker.lastTickReads()).isEqualTo(1);
    }

    @Test
    void endedThreadsAreDroppedAndNewOnesFound() {
        threads.start(1, "old");
        threads.start(2, "doomed");
        run(5, 1, t -> { });
        assertThat(tracker.trackedThreads()).isEqualTo(2);

        threads.end(2);
        threads.start(3, "new");
        List<Integer> newReads = run(3, 3, t -> threads.burn(3, SECOND));
        assertThat(newReads).containsExactly(6, 7, 8);
        assertThat(tracker.trackedThreads()).isEqualTo(2);
        assertThat(tracker.name(2)).isNull();
        assertThat(tracker.top(10)).extracting(ThreadCpu::name).containsExactly("new");
    }

    @Test
    void topRanksThreadsByRecentCpuPercentOfOneCoreWithLabels() {
        threads.start(1, "hot");
        threads.start(2, "warm");
        threads.start(3, "cool");
        threads.start(4, "parked");
        run(20, 1, t -> {
            threads.burn(1, SECOND * 95 / 100);
            threads.burn(2, SECOND / 2);
            threads.burn(3, SECOND / 20);
        });
        List<ThreadCpu> top = tracker.top(10);
        assertThat(top).extracting(ThreadCpu::name).containsExactly("hot", "warm", "cool"); // parked used nothing
        assertThat(top.get(0).cpuPercent()).isCloseTo(95, within(0.01));
        assertThat(top.get(0).cpuTime()).isEqualTo(Duration.ofMillis(9500)); // over the 10 s window
        assertThat(top).extracting(ThreadCpu::label)
                .containsExactly(ThreadCpu.Label.CPU_BOUND, ThreadCpu.Label.MIXED, ThreadCpu.Label.MOSTLY_WAITING);
        assertThat(tracker.top(1)).extracting(ThreadCpu::name).containsExactly("hot");
    }

    @Test
    void cpuPercentIsOverTheRecentWindowSoAThreadThatStoppedFadesOut() {
        threads.start(1, "was-busy");
        threads.start(2, "busy");
        run(30, 1, t -> {
            if (t <= 10) {
                threads.burn(1, SECOND);
            }
            threads.burn(2, SECOND);
        });
        assertThat(tracker.thread(1)).hasValueSatisfying(c -> {
            assertThat(c.cpuPercent()).isLessThan(1);
            assertThat(c.label()).isEqualTo(ThreadCpu.Label.MOSTLY_WAITING);
        });
        assertThat(tracker.top(5)).extracting(ThreadCpu::name).containsExactly("busy");
    }

    @Test
    void namesAreReadForThreadsThatUseCpuAndRefreshedRarely() {
        threads.start(1, "http-exec-1");
        threads.start(2, "idle");
        run(2, 1, t -> threads.burn(1, SECOND / 2));
        assertThat(threads.nameReads()).hasSize(1); // the busy one, when first seen busy (tick 2)
        assertThat(threads.nameReads().get(0)).containsExactly(1L);
        assertThat(tracker.name(2)).isNull(); // a parked thread's name is not worth a read

        threads.rename(1, "renamed");
        run(57, 1, t -> threads.burn(1, SECOND / 2));
        assertThat(threads.nameReads()).hasSize(1); // not on ordinary ticks
        assertThat(tracker.name(1)).isEqualTo("http-exec-1");

        run(1, 1, t -> threads.burn(1, SECOND / 2)); // tick 60: active threads' names read again
        assertThat(tracker.name(1)).isEqualTo("renamed");
        assertThat(threads.nameReads().get(1)).containsExactly(1L);

        assertThat(tracker.thread(2)).hasValueSatisfying(c -> assertThat(c.name()).isEqualTo("idle")); // asked for
    }

    @Test
    void threadsAreListedWhenOneStartsOrEndsSoANewHotThreadShowsUpAtOnce() {
        for (long id = 1; id <= 100; id++) {
            threads.start(id, "parked-" + id);
        }
        run(60, 1, t -> { });
        assertThat(threads.listings()).as("a quiet minute: the first listing and one every 10 ticks").isEqualTo(6);

        threads.start(101, "hot");
        run(2, 101, t -> threads.burn(101, SECOND));
        assertThat(tracker.top(3)).as("found on the next tick, ranked on the one after")
                .extracting(ThreadCpu::name).containsExactly("hot");

        threads.end(101);
        threads.end(7);
        run(1, 1, t -> { });
        assertThat(tracker.trackedThreads()).as("ended threads dropped on the next tick").isEqualTo(99);
        assertThat(tracker.top(3)).isEmpty();
    }

    @Test
    void aTickWithNoThreadDueReadsNothing() {
        threads.start(1, "parked");
        run(64, 1, t -> { }); // backed off to one read every 32 ticks by now
        threads.takeCpuReads();
        for (int i = 0; i < 64; i++) {
            now += SECOND;
            tracker.onSample(now, 0, Double.NaN);
        }
        assertThat(threads.takeCpuReads()).as("reads at ticks 96 and 128 only").hasSize(2);
    }

    @Test
    void aThreadNeedsTwoReadsBeforeItHasAPercent() {
        threads.start(1, "fresh");
        threads.burn(1, 50 * SECOND); // CPU used before we ever saw it: not a rate
        run(1, 1, t -> { });
        assertThat(tracker.thread(1)).isEmpty();
        assertThat(tracker.top(5)).isEmpty();
    }

    /** Like {@link #run}, with the process's CPU counter passed as the sampler does (the sum of what threads burned). */
    private List<Integer> runWithProcessCounter(int ticks, long id, IntConsumer work) {
        List<Integer> readAt = new ArrayList<>();
        for (int i = 0; i < ticks; i++) {
            tick++;
            work.accept(tick);
            now += SECOND;
            threads.takeCpuReads();
            tracker.onSample(now, threads.processCpu(), 1.0);
            if (threads.lastReadIncluded(id)) {
                readAt.add(tick);
            }
        }
        return readAt;
    }

    @Test
    void aQuietProcessSkipsWholeTicksAndTheFirstBusyTickReadsAsBefore() {
        for (long id = 1; id <= 50; id++) {
            threads.start(id, "parked-" + id);
        }
        runWithProcessCounter(1, 1, t -> { });
        assertThat(threads.listings()).isEqualTo(1);
        threads.takeCpuReads();
        // Two quiet minutes (0.5% of a core in all, below one active thread's 1%): not one read, not one listing.
        List<Integer> quietReads = runWithProcessCounter(120, 1, t -> threads.burn(2, SECOND / 200));
        assertThat(quietReads).isEmpty();
        assertThat(threads.takeCpuReads()).isEmpty();
        assertThat(threads.listings()).isEqualTo(1);

        // A thread starts and burns: the next tick lists it, reads it, and it is the top thread the tick after.
        threads.start(51, "hot");
        List<Integer> hotReads = runWithProcessCounter(3, 51, t -> threads.burn(51, SECOND));
        assertThat(hotReads).containsExactly(122, 123, 124);
        // parked-2's quiet 0.5% shows too: its read at 122 covered the two quiet minutes, not a made-up zero.
        assertThat(tracker.top(3)).extracting(ThreadCpu::name).containsExactly("hot", "parked-2");
        assertThat(tracker.top(3)).extracting(ThreadCpu::cpuPercent)
                .satisfiesExactly(hot -> assertThat(hot).isCloseTo(100, within(0.01)),
                        quiet -> assertThat(quiet).isCloseTo(0.5, within(0.05)));

        // It stops: read until a read shows it idle, then quiet again, and it fades out of the top over the window.
        List<Integer> afterReads = runWithProcessCounter(30, 51, t -> { });
        assertThat(afterReads).containsExactly(125);
        assertThat(tracker.activeThreadIds()).isEmpty();
        assertThat(tracker.top(3)).as("20 s after its burst ended, nothing in the 10 s window").isEmpty();
        assertThat(tracker.thread(51)).hasValueSatisfying(c -> assertThat(c.cpuPercent()).isZero());
    }

    @Test
    void whileQuietABurstThatJustEndedStillCountsOverTheWindowEndingNow() {
        threads.start(1, "worker");
        runWithProcessCounter(10, 1, t -> threads.burn(1, SECOND)); // busy 10 s, read every tick
        runWithProcessCounter(5, 1, t -> { });                       // 1 read (idle), then 4 skipped ticks
        // The window ending now (10 s) holds the last 5 busy seconds and 5 idle ones: 50% of a core.
        assertThat(tracker.thread(1)).hasValueSatisfying(c -> assertThat(c.cpuPercent()).isCloseTo(50, within(0.01)));
    }
}
