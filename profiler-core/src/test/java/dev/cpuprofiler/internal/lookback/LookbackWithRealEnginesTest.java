package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.trigger.Holds;
import dev.cpuprofiler.internal.stack.LookbackTrees;

import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.CpuProfilerStatus;

import static dev.cpuprofiler.internal.lookback.TestRecorders.stepAside;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.internal.engine.EngineLock;
import dev.cpuprofiler.internal.engine.EngineSelector;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.SelectedRecording;
import dev.cpuprofiler.internal.stack.StackSink;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.StackTreeSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Look-back with real JFR and the real engines: "the trigger fires" is the hand-over a CPU-triggered session does
 * (step aside, start the engine, record, stop, resume), and the profile is the session's tree with the look-back's
 * merged in, as the profile store will keep it.
 */
class LookbackWithRealEnginesTest {

    private static final Duration WINDOW = Duration.ofSeconds(30);
    private static final Duration SESSION_PERIOD = Duration.ofMillis(10);
    private static final Duration BURST = Duration.ofSeconds(2);
    private static final int DEPTH = 512;
    private static final int NODES = 200_000;

    @TempDir
    Path workDirectory;

    private final EngineLock lock = new EngineLock();
    private final EngineSelector selector = new EngineSelector(EngineSelector.standardEngines(), lock);
    private Lookback lookback;
    private LookbackTicks ticks;

    @AfterEach
    void close() {
        if (ticks != null) {
            ticks.close();
        }
        if (lookback != null) {
            lookback.close();
        }
    }

    @Test
    void aBurstThatEndedBeforeTheTriggerShowsInTheProfileWithLookbackOn() throws Exception {
        lookback = recorder();

        Profiled p = burstThenTrigger(lookback);

        long burst = weightOf(p.combined(), "lookbackBurstBeforeTheTrigger");
        long session = weightOf(p.combined(), "workDuringTheSession");
        System.out.printf("[look-back on] engine %s; burst %d, session work %d (in %d ms units); look-back %s to %s"
                        + " (%d samples every %s)%n", p.engine(), burst, session, SESSION_PERIOD.toMillis(),
                p.lookback().orElseThrow().startedAt(), p.lookback().orElseThrow().endedAt(),
                p.lookback().orElseThrow().samples(), p.lookback().orElseThrow().samplingPeriod());
        assertThat(burst).as("the burst in the CPU-triggered profile").isGreaterThanOrEqualTo(20);
        assertThat(session).as("the session's own work").isGreaterThanOrEqualTo(20);
        assertThat(weightOf(p.sessionOnly(), "lookbackBurstBeforeTheTrigger"))
                .as("the burst in the session's own part").isZero();
        // Both ran two seconds on one thread: weighed in the session's unit, their shares compare.
        assertThat((double) burst / session).as("burst / session weight").isBetween(0.33, 3.0);
        LookbackSnapshot part = p.lookback().orElseThrow();
        assertThat(part.startedAt()).isBeforeOrEqualTo(p.burstStartedAt());
        assertThat(part.endedAt()).isAfterOrEqualTo(p.burstEndedAt()).isBeforeOrEqualTo(p.sessionStartedAt());
        assertThat(part.samplingPeriod()).isEqualTo(Duration.ofMillis(50)); // the default
        assertThat(part.weight()).isEqualTo(5 * part.samples()); // each weighs five of the session's 10 ms
    }

    @Test
    void theSameBurstIsMissingWithLookbackOff() throws Exception {
        lookback = Lookback.off();

        Profiled p = burstThenTrigger(lookback);

        assertThat(p.lookback()).isEmpty();
        assertThat(weightOf(p.combined(), "lookbackBurstBeforeTheTrigger")).isZero();
        assertThat(weightOf(p.combined(), "workDuringTheSession")).isGreaterThanOrEqualTo(20);
    }

    @Test
    void lookbackAndSessionSamplesOfTheSameCodeLandOnTheSameNodes() throws Exception {
        lookback = recorder();
        lookback.start();
        awaitRecording();
        // One thread runs the same method through the look-back and the session.
        Thread both = Workloads.startOn("both-parts", () -> Workloads.workInBothParts(Duration.ofSeconds(5)));
        Thread.sleep(2_000);
        LookbackSnapshot part = stepAside(lookback).orElseThrow();
        StackTree tree = new StackTree(DEPTH, NODES, false);
        SelectedRecording session = selector.start(EngineChoice.JFR_EXECUTION, settings("both"), tree);
        both.join();
        deleteFile(session.stop());
        lookback.resume();

        StackTreeSnapshot combined = LookbackTrees.combined(tree.snapshot(), part, DEPTH, NODES, false);

        long inLookback = weightOf(part.tree(), "workInBothParts");
        long inSession = weightOf(tree.snapshot(), "workInBothParts");
        assertThat(inLookback).isPositive();
        assertThat(inSession).isPositive();
        assertThat(weightOf(combined, "workInBothParts")).isEqualTo(inLookback + inSession);
        assertThat(nodesNamed(combined, "workInBothParts")).as("nodes for the method once merged")
                .isEqualTo(Math.max(nodesNamed(part.tree(), "workInBothParts"),
                        nodesNamed(tree.snapshot(), "workInBothParts")));
    }

    @Test
    void lookbackStepsAsideSoTheSessionKeepsItsOwnPeriodAndResumesAfterwards() throws Exception {
        lookback = recorder();
        lookback.start();
        awaitRecording();
        Thread busy = Workloads.startOn("busy", () -> Workloads.workInBothParts(Duration.ofSeconds(6)));
        await().atMost(Duration.ofSeconds(10)).until(() -> lookback.status().samples() > 0);

        LookbackSnapshot part = stepAside(lookback).orElseThrow();
        // A session coarser than the look-back: had both JFR recordings run, JFR would sample both every 20 ms.
        LongAdder busySamples = new LongAdder();
        StackSink sink = (frames, thread, weight) -> {
            if ("busy".equals(thread)) {
                busySamples.add(weight);
            }
        };
        Instant start = Instant.now();
        SelectedRecording session = selector.start(EngineChoice.JFR_EXECUTION,
                EngineSettings.of(Duration.ofMillis(50), DEPTH, workDirectory, "coarse"), sink);
        Thread.sleep(2_000);
        long lookbackDuringSession = lookback.status().samples();
        CpuProfilerStatus.LookbackState stateDuringSession = lookback.status().state();
        deleteFile(session.stop());
        double seconds = Duration.between(start, Instant.now()).toMillis() / 1000.0;
        lookback.resume();

        assertThat(part.samples()).isPositive();
        assertThat(stateDuringSession).isEqualTo(CpuProfilerStatus.LookbackState.STEPPED_ASIDE);
        assertThat(lookbackDuringSession).as("look-back samples taken during the session").isZero();
        assertThat(busySamples.sum() / seconds).as("busy thread's samples per second at a 50 ms period")
                .isLessThan(30);
        assertThat(lookback.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        await().atMost(Duration.ofSeconds(10)).until(() -> lookback.status().samples() > 0);
        busy.join();
    }

    @Test
    void aFinerPeriodFromAnotherJfrRecordingIsNoticedAndWeighed() throws Exception {
        lookback = recorder();
        lookback.start();
        awaitRecording();
        try (jdk.jfr.Recording user = new jdk.jfr.Recording()) {
            user.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            user.start();

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> lookback.status().samplingPeriod().equals(Duration.ofMillis(10)));
            LookbackSnapshot part = stepAside(lookback).orElseThrow();

            assertThat(part.samplingPeriod()).isEqualTo(Duration.ofMillis(10));
            assertThat(part.notes()).anySatisfy(n -> assertThat(n).contains("another JFR recording"));
        }
    }

    private Profiled burstThenTrigger(Lookback lb) throws Exception {
        lb.start();
        if (lb.status().state() != CpuProfilerStatus.LookbackState.OFF) {
            awaitRecording();
        }
        Instant burstStart = Instant.now();
        Workloads.runOn("burst", () -> Workloads.lookbackBurstBeforeTheTrigger(BURST));
        Instant burstEnd = Instant.now();
        Thread.sleep(300);  // the burst is over when the trigger fires

        // The trigger fires: what ProfilingSessions.launch does for a CPU-triggered session.
        Optional<LookbackSnapshot> part = stepAside(lb);
        StackTree tree = new StackTree(DEPTH, NODES, false);
        SelectedRecording session = selector.start(EngineChoice.AUTO, settings("cpu"), tree);
        Instant sessionStart = Instant.now();
        Workloads.runOn("session", () -> Workloads.workDuringTheSession(BURST));
        deleteFile(session.stop());
        lb.resume();

        StackTreeSnapshot sessionOnly = tree.snapshot();
        StackTreeSnapshot combined = LookbackTrees.combined(sessionOnly, part.orElse(null), DEPTH, NODES, false);
        return new Profiled(session.engineId(), part, sessionOnly, combined, burstStart, burstEnd, sessionStart);
    }

    record Profiled(String engine, Optional<LookbackSnapshot> lookback, StackTreeSnapshot sessionOnly,
            StackTreeSnapshot combined, Instant burstStartedAt, Instant burstEndedAt, Instant sessionStartedAt) {
    }

    private LookbackRecorder recorder() {
        CpuProfilerOptions s = TestRecorders.options(WINDOW, new CpuProfilerOptions().getLookbackSamplingPeriod(),
                SESSION_PERIOD, DEPTH);
        LookbackRecorder recorder = TestRecorders.alwaysArmed(s, new Holds(),
                new JfrExecutionSampleSource(DEPTH, daemon("cpuprofiler-lookback-stream")), lock, Clock.systemUTC());
        ticks = LookbackTicks.every(recorder, LookbackRecorder.TICK, daemon("cpuprofiler-lookback"));
        return recorder;
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    private void awaitRecording() {
        await().atMost(Duration.ofSeconds(10)).until(() -> lookback.status().state() == CpuProfilerStatus.LookbackState.ARMED);
    }

    private EngineSettings settings(String name) {
        return EngineSettings.of(SESSION_PERIOD, DEPTH, workDirectory, name);
    }

    private static void deleteFile(EngineRecording.Result result) throws Exception {
        if (result.jfrFile() != null) {
            Files.deleteIfExists(result.jfrFile());
        }
    }

    /** Weight of the samples whose stack passes through a method of this name (its outermost node counts). */
    static long weightOf(StackTreeSnapshot tree, String method) {
        long weight = 0;
        for (int node = 1; node < tree.size(); ) {
            if (tree.frame(node).endsWith("." + method)) {
                weight += tree.total(node);
                node = tree.subtreeEnd(node);  // recursion below it is already counted
            } else {
                node++;
            }
        }
        return weight;
    }

    private static long nodesNamed(StackTreeSnapshot tree, String method) {
        long n = 0;
        for (int node = 1; node < tree.size(); node++) {
            if (tree.frame(node).endsWith("." + method)) {
                n++;
            }
        }
        return n;
    }
}
