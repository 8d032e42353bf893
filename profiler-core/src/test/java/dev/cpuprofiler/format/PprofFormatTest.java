package dev.cpuprofiler.format;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.internal.requests.EndpointTally;
import dev.cpuprofiler.internal.requests.RequestLog;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import java.nio.charset.StandardCharsets;
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
        Profile profile = ProfileBuilder.profile("20260101T000000Z-manual-1", SessionTrigger.MANUAL,
                new StackTree(64, 1000, false).snapshot()).engine(EngineChoice.JFR_EXECUTION, "jfr")
                .between(START, END).build();

        PprofDecoded pprof = PprofDecoded.decode(Written.pprof(profile, LookbackView.ONLY));

        assertThat(pprof.samples()).isEmpty();
        assertThat(pprof.sampleTypes()).containsExactly("samples/count", "cpu/nanoseconds");
    }

    @Test
    void aTracedRequestsSamplesCarryItsSpanAsPyroscopesSpanProfilesDo() throws Exception {
        RequestTimeline timeline = new RequestTimeline(false, null);
        timeline.start();
        long thread = Thread.currentThread().getId();
        long traced = timeline.newRequest();
        long inTraced = inside(timeline, traced);
        long plain = timeline.newRequest();
        long inPlain = inside(timeline, plain);
        timeline.ended(traced, "GET /orbit", "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
        timeline.ended(plain, "GET /plain");
        Thread.sleep(5);
        long outside = epochNanosNow();
        RequestLog log = timeline.stop();
        StackTree tree = new StackTree(64, 1000, false);
        EndpointTally tally = new EndpointTally(tree, 64, 1000);
        tally.join(log);
        Frame run = Frame.java("app.Main.run");
        tally.accept(List.of(run, Frame.java("app.Orbit.spin")), "worker", thread, inTraced, 70);
        tally.accept(List.of(run, Frame.java("app.Plain.parse")), "worker", thread, inPlain, 20);
        tally.accept(List.of(run, Frame.java("app.Idle.poll")), "worker", thread, outside, 10);
        timeline.close();
        Profile profile = ProfileBuilder.profile("20260101T000030Z-cpu-1", SessionTrigger.CPU, tree.snapshot())
                .between(START, END).samples(100).cpuPercent(50.0).requests(new Profile.Requests(
                        tally.endpoints(100, PERIOD, 10), tally.tree(), tally.hottestTraces(PERIOD, 10),
                        tally.spanTree())).build();

        PprofDecoded pprof = PprofDecoded.decode(Written.pprof(profile, LookbackView.INCLUDE));

        assertThat(pprof.samples()).allSatisfy(s -> assertThat(s.framesLeafFirst()).noneMatch(f -> f.startsWith("[")));
        Map<String, Map<String, String>> labels = new java.util.HashMap<>();
        pprof.samples().forEach(s -> labels.put(s.framesLeafFirst().get(0), s.labels()));
        assertThat(labels).containsExactlyInAnyOrderEntriesOf(Map.of(
                "app.Orbit.spin", Map.of("endpoint", "GET /orbit", "span_id", "00f067aa0ba902b7",
                        "span_name", "GET /orbit"),
                "app.Plain.parse", Map.of("endpoint", "GET /plain"),
                "app.Idle.poll", Map.of("endpoint", "[no request]")));
        // The span level is for labels only: grouped by endpoint, the other formats draw no frame for it.
        String collapsed = new String(Written.bytes(ProfileFormat.COLLAPSED, profile,
                ProfileView.of(LookbackView.INCLUDE, ProfileView.Group.ENDPOINT)), StandardCharsets.UTF_8);
        assertThat(collapsed).contains("[GET /orbit];app.Main.run;app.Orbit.spin 70").doesNotContain("[trace");
    }

    /** Inside a request on this thread, 3 ms from either end: an epoch time a sample of it would carry. */
    private static long inside(RequestTimeline timeline, long request) throws InterruptedException {
        timeline.enter(request);
        Thread.sleep(3);
        long t = epochNanosNow();
        Thread.sleep(3);
        timeline.exit(request);
        Thread.sleep(3);
        return t;
    }

    private static long epochNanosNow() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** 100 samples: 60 in app.Hot.spin (a worker), 25 in app.Cold.parse (main), 10 in read under it, 5 in run. */
    private static Profile profile(boolean groupByThread, LookbackSnapshot lookback) {
        StackTree tree = new StackTree(64, 1000, groupByThread);
        Frame run = Frame.java("app.Main.run");
        tree.accept(List.of(run, Frame.java("app.Hot.spin")), "worker-1", 60);
        tree.accept(List.of(run, Frame.java("app.Cold.parse")), "main", 25);
        tree.accept(List.of(run, Frame.java("app.Cold.parse"), new Frame("read", FrameKind.NATIVE)), "main", 10);
        tree.accept(List.of(run), "main", 5);
        return ProfileBuilder.profile("20260101T000030Z-cpu-1", SessionTrigger.CPU, tree.snapshot())
                .engine(EngineChoice.JFR_EXECUTION, "jdk.ExecutionSample").between(START, END).cpuPercent(50.0)
                .lookback(lookback).build();
    }
}
