package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackNode;
import dev.cpuprofiler.internal.stack.StackTree;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LookbackRingTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration WINDOW = Duration.ofSeconds(30);
    private static final Duration PERIOD = Duration.ofMillis(20);
    private static final Duration UNIT = Duration.ofMillis(10);

    @Test
    void holdsOnlyTheLastWindowOfSamples() {
        LookbackRing ring = new LookbackRing(settings(WINDOW, 44_000));
        Instant end = T0.plus(Duration.ofMinutes(5));
        long inWindow = 0;
        for (Instant t = T0; t.isBefore(end); t = t.plus(PERIOD)) {
            ring.add(t, stack("app.Worker.run", "app.Worker.step" + (t.getEpochSecond() % 7)), "worker");
            if (!t.isBefore(ring.coveredFrom(end))) {
                inWindow++;
            }
        }

        LookbackRing.Contents contents = ring.contents(end);

        Duration covered = Duration.between(contents.coveredFrom(), end);
        assertThat(covered).isLessThanOrEqualTo(WINDOW)
                .isGreaterThan(WINDOW.minus(ring.bucketWidth()));
        assertThat(contents.samples()).as("samples of the window, none older").isEqualTo(inWindow);
        assertThat(contents.tree().totalSamples()).as("20 ms samples weigh two 10 ms units").isEqualTo(2 * inWindow);
        assertThat(inWindow).isBetween(WINDOW.minus(ring.bucketWidth()).toMillis() / 20, WINDOW.toMillis() / 20);
    }

    @Test
    void aSampleThatSaysItsPeriodWeighsItInTheSessionsUnit() {
        LookbackRing ring = new LookbackRing(settings(WINDOW, 44_000));

        // CPU-time samples: one taken while JFR sampled every 10 ms (another recording asked), three at 20 ms.
        ring.add(T0, stack("app.A.run"), "a", Duration.ofMillis(10));
        ring.add(T0.plusMillis(20), stack("app.B.run"), "b", Duration.ofMillis(20));
        ring.add(T0.plusMillis(40), stack("app.B.run"), "b", Duration.ofMillis(20));
        ring.add(T0.plusMillis(60), stack("app.B.run"), "b");

        LookbackRing.Contents contents = ring.contents(T0.plusSeconds(1));
        assertThat(contents.samples()).isEqualTo(4);
        assertThat(contents.tree().totalSamples()).as("10 ms units: 1 + 2 + 2 + 2").isEqualTo(7);
    }

    @Test
    void memoryStaysBoundedOverALongRunWithManyDistinctStacks() {
        int budget = 44_000;
        LookbackRing ring = new LookbackRing(settings(WINDOW, budget));
        SplittableRandom random = new SplittableRandom(42);
        Instant t = T0;
        long maxNodes = 0;
        long maxBytes = 0;
        long sampled = 0;
        // Half an hour (60 windows) at 20 ms, six threads sampled per period, nearly every stack new: the worst case.
        for (int period = 0; period < 1800 * 50; period++) {
            t = t.plus(PERIOD);
            for (int thread = 0; thread < 6; thread++) {
                ring.add(t, randomStack(random), "worker-" + thread);
                sampled++;
            }
            if (period % 5000 == 0) {
                ring.evict(t);
                maxNodes = Math.max(maxNodes, ring.nodeCount());
                maxBytes = Math.max(maxBytes, ring.footprintBytes());
            }
        }
        LookbackRing.Contents contents = ring.contents(t);

        System.out.printf("[ring] %d samples over 30 min; held at most %d nodes, %d KB; window holds %d samples, "
                        + "%d cut to fit%n", sampled, maxNodes, maxBytes / 1024, contents.samples(),
                contents.tree().truncatedSamples());
        assertThat(maxNodes).as("nodes held").isLessThanOrEqualTo(budget);
        // ~110 B per node when every frame is distinct (each bucket interns its own names), ~4.5 MB in all.
        assertThat(maxBytes).as("bytes held").isLessThan(5L * 1024 * 1024);
        assertThat(contents.samples()).as("only the window's samples, not half an hour's")
                .isLessThanOrEqualTo((WINDOW.toMillis() / 20 + 1) * 6);  // both ends of the window included
        assertThat(contents.tree().totalSamples()).as("what did not fit is counted, not lost")
                .isEqualTo(2 * contents.samples());
        assertThat(contents.tree().truncatedSamples()).isPositive();
    }

    @Test
    void anIdleApplicationsRingEmptiesOnceTheWindowHasPassed() {
        LookbackRing ring = new LookbackRing(settings(WINDOW, 44_000));
        for (int i = 0; i < 500; i++) {
            ring.add(T0.plusMillis(20L * i), stack("app.Burst.run", "app.Burst.spin"), "worker");
        }
        assertThat(ring.samples()).isEqualTo(500);

        ring.evict(T0.plus(WINDOW).plus(Duration.ofSeconds(11)));

        assertThat(ring.samples()).isZero();
        assertThat(ring.footprintBytes()).isZero();
        assertThat(ring.contents(T0.plus(Duration.ofMinutes(1))).tree().totalSamples()).isZero();
    }

    @Test
    void aSampleDeliveredAfterItsBucketLeftTheRingIsDropped() {
        LookbackRing ring = new LookbackRing(settings(WINDOW, 44_000));
        ring.add(T0.plus(Duration.ofMinutes(2)), stack("app.New.run"), "worker");

        ring.add(T0, stack("app.Old.run"), "worker");

        LookbackRing.Contents contents = ring.contents(T0.plus(Duration.ofMinutes(2)));
        assertThat(contents.samples()).isEqualTo(1);
        assertThat(contents.droppedSamples()).isEqualTo(1);
        assertThat(StackNode.of(contents.tree()).child("app.New.run")).isNotNull();
    }

    @Test
    void drainingHandsOverTheSamplesOnce() {
        LookbackRing ring = new LookbackRing(settings(WINDOW, 44_000));
        ring.add(T0, stack("app.Burst.run"), "worker");

        assertThat(ring.drain(T0.plusSeconds(1)).samples()).isEqualTo(1);
        assertThat(ring.drain(T0.plusSeconds(1)).samples()).isZero();
    }

    @Test
    void lookbackAndSessionSharesCompareOnceMergedIntoTheSessionTree() {
        // One second of a method in the look-back (20 ms samples) and one second of another in the session (10 ms).
        LookbackRing ring = new LookbackRing(settings(WINDOW, 44_000));
        for (int i = 0; i < 50; i++) {
            ring.add(T0.plusMillis(20L * i), stack("app.Main.run", "app.Main.burstBefore"), "main");
        }
        StackTree session = new StackTree(64, 10_000, false);
        for (int i = 0; i < 100; i++) {
            session.accept(stack("app.Main.run", "app.Main.workAfter"), "main", 1);
        }

        session.merge(ring.contents(T0.plusSeconds(2)).tree());

        StackNode main = StackNode.of(session.snapshot()).child("app.Main.run");
        assertThat(main.child("app.Main.burstBefore").total()).isEqualTo(100);
        assertThat(main.child("app.Main.workAfter").total()).isEqualTo(100);
    }

    @Test
    void theWindowIsCutIntoTenBucketsPlusTheOneFilling() {
        LookbackRing ring = new LookbackRing(settings(WINDOW, 44_000));

        assertThat(ring.bucketWidth()).isEqualTo(Duration.ofSeconds(3));
        assertThat(ring.bucketSlots()).isEqualTo(11);
    }

    static CpuProfilerOptions settings(Duration window, int maxNodes) {
        CpuProfilerOptions options = TestRecorders.options(window, PERIOD, UNIT, 512);
        options.setMaxTreeNodes(maxNodes);
        return options;
    }

    static List<Frame> stack(String... names) {
        List<Frame> frames = new ArrayList<>();
        for (String n : names) {
            frames.add(Frame.java(n));
        }
        return frames;
    }

    private static List<Frame> randomStack(SplittableRandom random) {
        int depth = 10 + random.nextInt(50);
        List<Frame> frames = new ArrayList<>(depth);
        frames.add(Frame.java("java.lang.Thread.run"));
        for (int d = 1; d < depth; d++) {
            frames.add(Frame.java("gen.C" + random.nextInt(2_000) + ".m" + random.nextInt(50)));
        }
        return frames;
    }
}
