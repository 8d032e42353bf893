package dev.cpuprofiler.format;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Frame;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.internal.stack.StackTree;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** pprof bytes decoded back field by field: what {@code go tool pprof} and Pyroscope will see. */
class PprofFormatTest {

    private static final Instant LOOKBACK_START = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant START = LOOKBACK_START.plusSeconds(30);
    private static final Instant END = START.plusSeconds(20);
    private static final Duration PERIOD = Duration.ofMillis(10);
    private static final long PERIOD_NANOS = PERIOD.toNanos();


    @Test
    void samplesAndCpuTimeWithPeriodAndTimeWindow() {
        Profile profile = profile(false, null);

        PprofDecoded pprof = PprofDecoded.decode(Written.pprof(profile, LookbackView.INCLUDE));

        assertThat(pprof.sampleTypes()).containsExactly("samples/count", "cpu/nanoseconds");
        assertThat(pprof.periodType()).isEqualTo("cpu/nanoseconds");
        assertThat(pprof.period()).isEqualTo(PERIOD_NANOS);
        assertThat(pprof.defaultSampleType()).isEqualTo("cpu");
        assertThat(pprof.timeNanos()).isEqualTo(START.getEpochSecond() * 1_000_000_000L + START.getNano());
        assertThat(pprof.durationNanos()).isEqualTo(Duration.ofSeconds(20).toNanos());
        assertThat(pprof.comments()).singleElement().asString().contains(profile.id()).contains("jfr-execution");
        assertThat(pprof.total(0)).isEqualTo(100);
        assertThat(pprof.total(1)).isEqualTo(100 * PERIOD_NANOS);
        // The hot method's share: 60 of 100 samples end in it.
        assertThat(pprof.leafTotal("app.Hot.spin", 0) * 100.0 / pprof.total(0)).isCloseTo(60.0, within(0.01));
        assertThat(pprof.leafTotal("app.Hot.spin", 1)).isEqualTo(60 * PERIOD_NANOS);
        assertThat(pprof.samples()).allSatisfy(s -> assertThat(s.labels()).isEmpty());
    }

    @Test
    void stacksAreLeafFirstWithOneFunctionAndLocationPerDistinctFrame() {
        PprofDecoded pprof = PprofDecoded.decode(Written.pprof(profile(false, null), LookbackView.INCLUDE));

        assertThat(pprof.samples()).extracting(PprofDecoded.Sample::framesLeafFirst).containsExactlyInAnyOrder(
                List.of("app.Hot.spin", "app.Main.run"),
                List.of("app.Cold.parse", "app.Main.run"),
                List.of("app.Main.run"),
                List.of("read", "app.Cold.parse", "app.Main.run"));
        // app.Main.run, app.Hot.spin, app.Cold.parse, read: each once, however many stacks pass through it.
        assertThat(pprof.functions()).isEqualTo(4);
        assertThat(pprof.locations()).isEqualTo(4);
    }

    @Test
    void threadGroupsBecomeThreadLabelsNotFrames() {
        PprofDecoded pprof = PprofDecoded.decode(Written.pprof(profile(true, null), LookbackView.INCLUDE));

        assertThat(pprof.samples()).allSatisfy(s -> {
            assertThat(s.labels()).containsKey("thread");
            assertThat(s.framesLeafFirst()).noneMatch(f -> f.startsWith("["))
                    .last().isEqualTo("app.Main.run");
        });
        assertThat(pprof.samples()).filteredOn(s -> s.leaf().equals("app.Hot.spin"))
                .extracting(PprofDecoded.Sample::labels).containsOnly(Map.of("thread", "worker-*"));
        assertThat(pprof.samples()).filteredOn(s -> s.leaf().equals("app.Cold.parse"))
                .extracting(PprofDecoded.Sample::labels).containsOnly(Map.of("thread", "main"));
        assertThat(pprof.total(0)).isEqualTo(100);
        assertThat(pprof.leafTotal("app.Hot.spin", 0)).isEqualTo(60);
    }

    @Test
    void lookbackViewsChooseTheSamplesAndTheTimeWindow() {
        StackTree before = new StackTree(64, 1000, true);
        before.accept(List.of(Frame.java("app.Main.run"), Frame.java("app.Before.burst")), "worker-2", 40);
        LookbackSnapshot lookback = new LookbackSnapshot(LOOKBACK_START, START, PERIOD, PERIOD, 40, before.snapshot(),
                List.of());
        Profile profile = profile(true, lookback);

        PprofDecoded include = PprofDecoded.decode(Written.pprof(profile, LookbackView.INCLUDE));
        PprofDecoded exclude = PprofDecoded.decode(Written.pprof(profile, LookbackView.EXCLUDE));
        PprofDecoded only = PprofDecoded.decode(Written.pprof(profile, LookbackView.ONLY));

        assertThat(include.total(0)).isEqualTo(140);
        assertThat(include.leafTotal("app.Before.burst", 0)).isEqualTo(40);
        assertThat(include.timeNanos()).isEqualTo(LOOKBACK_START.getEpochSecond() * 1_000_000_000L);
        assertThat(include.durationNanos()).isEqualTo(Duration.ofSeconds(50).toNanos());
        assertThat(include.comments()).singleElement().asString().contains("lookback=include");

        assertThat(exclude.total(0)).isEqualTo(100);
        assertThat(exclude.leafTotal("app.Before.burst", 0)).isZero();
        assertThat(exclude.timeNanos()).isEqualTo(START.getEpochSecond() * 1_000_000_000L);
        assertThat(exclude.durationNanos()).isEqualTo(Duration.ofSeconds(20).toNanos());

        assertThat(only.total(0)).isEqualTo(40);
        assertThat(only.total(1)).isEqualTo(40 * PERIOD_NANOS);
        assertThat(only.samples()).singleElement().satisfies(s -> {
            assertThat(s.framesLeafFirst()).containsExactly("app.Before.burst", "app.Main.run");
            assertThat(s.labels()).containsEntry("thread", "worker-*");
        });
        assertThat(only.timeNanos()).isEqualTo(LOOKBACK_START.getEpochSecond() * 1_000_000_000L);
        assertThat(only.durationNanos()).isEqualTo(Duration.ofSeconds(30).toNanos());
    }

    @Test
    void anEmptyProfileIsAValidProfileWithNoSamples() {
        Profile profile = new Profile("20260101T000000Z-manual-1", SessionTrigger.MANUAL, "jfr-execution", "jfr",
                List.of(), List.of(), START, END, PERIOD, 0, 0, null, new StackTree(64, 1000, false).snapshot(), null,
                null, null, null);

        PprofDecoded pprof = PprofDecoded.decode(Written.pprof(profile, LookbackView.ONLY));

        assertThat(pprof.samples()).isEmpty();
        assertThat(pprof.sampleTypes()).containsExactly("samples/count", "cpu/nanoseconds");
    }

    /** 100 samples: 60 in app.Hot.spin (a worker), 25 in app.Cold.parse (main), 10 in read under it, 5 in run. */
    private static Profile profile(boolean groupByThread, LookbackSnapshot lookback) {
        StackTree tree = new StackTree(64, 1000, groupByThread);
        Frame run = Frame.java("app.Main.run");
        tree.accept(List.of(run, Frame.java("app.Hot.spin")), "worker-1", 60);
        tree.accept(List.of(run, Frame.java("app.Cold.parse")), "main", 25);
        tree.accept(List.of(run, Frame.java("app.Cold.parse"), new Frame("read", FrameKind.NATIVE)), "main", 10);
        tree.accept(List.of(run), "main", 5);
        return new Profile("20260101T000030Z-cpu-1", SessionTrigger.CPU, "jfr-execution", "jdk.ExecutionSample",
                List.of(), List.of(), START, END, PERIOD, 100, 0, 50.0, tree.snapshot(), null, null, lookback, null);
    }
}
