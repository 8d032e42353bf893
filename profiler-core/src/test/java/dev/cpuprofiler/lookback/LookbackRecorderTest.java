package dev.cpuprofiler.lookback;

import static dev.cpuprofiler.lookback.LookbackRingTest.stack;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.core.EngineChoice;
import dev.cpuprofiler.session.engine.EngineBusyException;
import dev.cpuprofiler.session.engine.EngineLock;
import dev.cpuprofiler.session.engine.EngineSelector;
import dev.cpuprofiler.session.engine.EngineSettings;
import dev.cpuprofiler.session.engine.SelectedRecording;
import dev.cpuprofiler.stack.StackNode;
import dev.cpuprofiler.stack.StackTree;
import dev.cpuprofiler.testing.FakeTime;
import dev.cpuprofiler.testing.LogCapture;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The recorder's hand-over with sessions, with a fake sampler and a fake session engine behind the real lock. */
class LookbackRecorderTest {

    private static final Duration WINDOW = Duration.ofSeconds(30);

    @TempDir
    Path workDirectory;

    private final OverlapDetector detector = new OverlapDetector();
    private final FakeLookbackSource source = new FakeLookbackSource(detector);
    private final EngineLock lock = new EngineLock();
    private final EngineSelector selector = new EngineSelector(List.of(new FakeSessionEngine(detector)), lock);
    private final FakeTime time = new FakeTime();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final ThreadFactory threadFactory = r -> {
        Thread t = new Thread(r, "lookback-test-ticker");
        t.setDaemon(true);
        threads.add(t);
        return t;
    };
    private LookbackRecorder recorder;

    @AfterEach
    void close() {
        if (recorder != null) {
            recorder.close();
        }
    }

    @Test
    void whileLookbackRecordsNoSessionCanStart() {
        recorder = recorder(Duration.ofHours(1));
        recorder.start();

        assertThat(recorder.status().state()).isEqualTo(LookbackState.RECORDING);
        assertThat(lock.holder()).hasValueSatisfying(h -> assertThat(h).startsWith("look-back"));
        assertThatThrownBy(this::startSession).isInstanceOf(EngineBusyException.class)
                .hasMessageContaining("look-back");
        assertThat(detector.mostAtOnce()).isEqualTo(1);
    }

    @Test
    void steppingAsideHandsOverTheWindowAndFreesTheEngineForTheSession() throws Exception {
        recorder = recorder(Duration.ofHours(1));
        recorder.start();
        Instant start = time.instant();
        for (int i = 0; i < 100; i++) {
            time.advance(Duration.ofMillis(20));
            source.sample(time.instant(), stack("app.Main.run", "app.Main.burst"), "main");
        }

        LookbackSnapshot snapshot = recorder.stepAside().orElseThrow();
        SelectedRecording session = startSession();

        assertThat(snapshot.samples()).isEqualTo(100);
        assertThat(snapshot.weight()).as("20 ms samples in 10 ms units").isEqualTo(200);
        assertThat(snapshot.tree().toNode().child("app.Main.run").child("app.Main.burst").total()).isEqualTo(200);
        assertThat(snapshot.startedAt()).isEqualTo(start);
        assertThat(snapshot.endedAt()).isEqualTo(time.instant());
        assertThat(snapshot.samplingPeriod()).isEqualTo(Duration.ofMillis(20));
        assertThat(snapshot.weightUnit()).isEqualTo(Duration.ofMillis(10));
        assertThat(source.isRecording()).isFalse();
        assertThat(recorder.status().state()).isEqualTo(LookbackState.STEPPED_ASIDE);
        assertThat(lock.holder()).hasValueSatisfying(h -> assertThat(h).contains("recording 'cpuprofile'"));
        session.stop();
        assertThat(detector.mostAtOnce()).isEqualTo(1);
    }

    @Test
    void resumingWhileTheSessionRecordsWaitsForItThenRecordsAgain() throws Exception {
        recorder = recorder(Duration.ofMillis(10));
        recorder.start();
        recorder.stepAside();
        SelectedRecording session = startSession();

        recorder.resume();

        assertThat(recorder.status().state()).isEqualTo(LookbackState.WAITING);
        assertThat(recorder.status().reason()).contains("recording 'cpuprofile'");
        Thread.sleep(100);  // ten ticks: still waiting, never sampling next to the session
        assertThat(source.isRecording()).isFalse();
        assertThat(source.starts.get()).isEqualTo(1);

        session.stop();

        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.status().state() == LookbackState.RECORDING);
        assertThat(source.isRecording()).isTrue();
        assertThat(source.starts.get()).isEqualTo(2);
        assertThat(detector.mostAtOnce()).isEqualTo(1);
    }

    @Test
    void lookbackAndSessionsNeverSampleAtTheSameTime() throws Exception {
        recorder = new LookbackRecorder(settings(), source, lock, java.time.Clock.systemUTC(), threadFactory,
                Duration.ofMillis(1));
        recorder.start();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        // A second party pokes the recorder at random moments: resume() must never make it sample next to a session.
        Thread poker = new Thread(() -> {
            while (running.get()) {
                recorder.resume();
                source.sample(Instant.now(), stack("app.Main.run"), "main");
                Thread.onSpinWait();
            }
        });
        poker.start();
        int sessions = 0;
        try {
            for (int round = 0; round < 300; round++) {
                Optional<LookbackSnapshot> snapshot = recorder.stepAside();
                assertThat(snapshot).isPresent();
                SelectedRecording session;
                try {
                    session = startSession();
                } catch (EngineBusyException busy) {
                    continue;  // the poker's resume() got the lock first: the session must not start then
                }
                sessions++;
                assertThat(source.isRecording()).as("look-back sampling during a session").isFalse();
                Thread.sleep(0, 200_000);
                session.stop();
                recorder.resume();
            }
        } catch (Throwable t) {
            failure.set(t);
        } finally {
            running.set(false);
            poker.join();
        }
        assertThat(failure.get()).isNull();
        assertThat(sessions).isGreaterThan(50);
        assertThat(detector.mostAtOnce()).as("samplers running at once").isEqualTo(1);
    }

    @Test
    void afterACpuTriggeredSessionItResumesOneWindowBeforeTheCooldownEnds() {
        recorder = recorder(Duration.ofMillis(10));
        recorder.start();
        recorder.stepAside();
        Instant cooldownEnd = time.instant().plus(Duration.ofHours(4));

        recorder.resumeAt(cooldownEnd.minus(WINDOW));

        assertThat(recorder.status().state()).isEqualTo(LookbackState.STEPPED_ASIDE);
        assertThat(recorder.status().resumesAt()).isEqualTo(cooldownEnd.minus(WINDOW));
        time.advance(Duration.ofHours(4).minus(WINDOW).minusSeconds(1));
        assertThat(source.isRecording()).as("sampling during the cooldown").isFalse();

        time.advance(Duration.ofSeconds(1));

        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.status().state() == LookbackState.RECORDING);
        assertThat(source.starts.get()).isEqualTo(2);
        assertThat(recorder.status().resumesAt()).isNull();
    }

    @Test
    void aSessionStartingBeforeTheResumeTimeKeepsItAside() {
        recorder = recorder(Duration.ofMillis(10));
        recorder.start();
        recorder.stepAside();
        recorder.resumeAt(time.instant().plus(Duration.ofMinutes(5)));

        recorder.stepAside();
        time.advance(Duration.ofMinutes(10));

        assertThat(recorder.status().state()).isEqualTo(LookbackState.STEPPED_ASIDE);
        assertThat(recorder.status().resumesAt()).isNull();
        assertThat(source.starts.get()).isEqualTo(1);
    }

    @Test
    void aCoverageShorterThanTheWindowIsSaid() {
        recorder = recorder(Duration.ofHours(1));
        recorder.start();
        Instant start = time.instant();
        time.advance(Duration.ofSeconds(10));

        LookbackSnapshot snapshot = recorder.stepAside().orElseThrow();

        assertThat(snapshot.startedAt()).isEqualTo(start);
        assertThat(snapshot.duration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(snapshot.notes()).anySatisfy(n -> assertThat(n).contains("covers 10.0 s of its PT30S window"));
    }

    @Test
    void aLongRunningLookbackReachesBackOneWindowAtMost() {
        recorder = recorder(Duration.ofHours(1));
        recorder.start();
        for (int i = 0; i < 5 * 60 * 50; i++) {
            time.advance(Duration.ofMillis(20));
            source.sample(time.instant(), stack("app.Main.run"), "main");
        }

        LookbackSnapshot snapshot = recorder.stepAside().orElseThrow();

        assertThat(snapshot.duration()).isLessThanOrEqualTo(WINDOW).isGreaterThan(WINDOW.minusSeconds(3));
        assertThat(snapshot.samples()).isLessThanOrEqualTo(WINDOW.toMillis() / 20 + 1);
        assertThat(snapshot.notes()).isEmpty();
    }

    @Test
    void aFinerPeriodImposedByAnotherRecordingIsWeighedAndSaid() throws Exception {
        recorder = recorder(Duration.ofMillis(10));
        recorder.start();
        source.imposePeriod(Duration.ofMillis(10));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> recorder.status().samplingPeriod().equals(Duration.ofMillis(10)));
        for (int i = 0; i < 100; i++) {
            time.advance(Duration.ofMillis(10));
            source.sample(time.instant(), stack("app.Main.run"), "main");
        }

        LookbackSnapshot snapshot = recorder.stepAside().orElseThrow();

        assertThat(snapshot.weight()).as("10 ms samples in 10 ms units").isEqualTo(100);
        assertThat(snapshot.samplingPeriod()).isEqualTo(Duration.ofMillis(10));
        assertThat(snapshot.notes()).anySatisfy(n -> assertThat(n).contains("another JFR recording"));
    }

    @Test
    void aSamplerThatCannotRunLeavesTheEngineFreeAndSaysWhy() throws Exception {
        recorder = new LookbackRecorder(settings(), FakeLookbackSource.refusing("JFR is not available here"), lock,
                time, threadFactory, Duration.ofHours(1));
        recorder.start();

        assertThat(recorder.status().state()).isEqualTo(LookbackState.UNAVAILABLE);
        assertThat(recorder.status().reason()).isEqualTo("JFR is not available here");
        assertThat(lock.holder()).isEmpty();
        LookbackSnapshot snapshot = recorder.stepAside().orElseThrow();
        assertThat(snapshot.samples()).isZero();
        assertThat(snapshot.notes()).containsExactly("look-back was not recording: JFR is not available here");
        startSession().stop();
    }

    @Test
    void aRecordingThatMustEndFreesTheEngineSaysWhyOnceAndIsRetriedAMinuteLater() throws Exception {
        try (LogCapture logs = new LogCapture()) {
            recorder = recorder(Duration.ofMillis(5));
            recorder.start();
            assertThat(recorder.status().state()).isEqualTo(LookbackState.RECORDING);

            source.failRunning("only 10 MB of 96 MB free (JFR's repository)");
            source.refuse("only 10 MB of 96 MB free (JFR's repository)");
            await().atMost(Duration.ofSeconds(10)).until(() -> recorder.status().state() == LookbackState.UNAVAILABLE);
            assertThat(recorder.status().reason()).contains("only 10 MB");
            assertThat(lock.holder()).isEmpty();
            assertThat(source.isRecording()).isFalse();

            time.advance(Duration.ofSeconds(61));  // the retry a minute later is refused too: not said again
            await().atMost(Duration.ofSeconds(10)).until(() -> recorder.status().reason() != null
                    && logs.messages(Level.DEBUG).stream().anyMatch(m -> m.contains("still cannot record")));
            assertThat(logs.messages(Level.WARN)).filteredOn(m -> m.contains("Look-back cannot record")).hasSize(1);

            source.refuse(null);  // space again
            time.advance(Duration.ofSeconds(61));
            await().atMost(Duration.ofSeconds(10)).until(() -> recorder.status().state() == LookbackState.RECORDING);
            assertThat(logs.messages(Level.INFO)).anySatisfy(m -> assertThat(m).contains("records again"));
        }
    }

    @Test
    void closingStopsSamplingFreesTheEngineAndEndsItsThread() throws Exception {
        recorder = recorder(Duration.ofMillis(10));
        recorder.start();

        recorder.close();

        assertThat(source.isRecording()).isFalse();
        assertThat(lock.holder()).isEmpty();
        assertThat(recorder.stepAside()).isEmpty();
        for (Thread t : threads) {
            t.join(5_000);
            assertThat(t.isAlive()).as("ticker thread alive after close").isFalse();
        }
        assertThat(recorder.status().state()).isEqualTo(LookbackState.STOPPED);
    }

    @Test
    void lookbackOffRecordsNothingAndNeverTakesTheEngine() throws Exception {
        Lookback off = Lookback.off();
        off.start();

        assertThat(off.stepAside()).isEmpty();
        assertThat(off.status().state()).isEqualTo(LookbackState.OFF);
        assertThat(lock.holder()).isEmpty();
        startSession().stop();
    }

    @Test
    void theSnapshotMergesIntoASessionTreeWithComparableWeights() {
        recorder = recorder(Duration.ofHours(1));
        recorder.start();
        for (int i = 0; i < 50; i++) {  // one second of look-back at 20 ms
            time.advance(Duration.ofMillis(20));
            source.sample(time.instant(), stack("app.Main.run", "app.Main.burstBefore"), "main");
        }
        LookbackSnapshot snapshot = recorder.stepAside().orElseThrow();
        StackTree session = new StackTree(512, 10_000, false);
        for (int i = 0; i < 100; i++) {  // one second of session at 10 ms
            session.accept(stack("app.Main.run", "app.Main.workAfter"), "main", 1);
        }

        StackNode withLookback = LookbackTrees.combined(session.snapshot(), snapshot, 512, 10_000, false).toNode();
        StackNode without = session.snapshot().toNode();

        assertThat(withLookback.child("app.Main.run").child("app.Main.burstBefore").total()).isEqualTo(100);
        assertThat(withLookback.child("app.Main.run").child("app.Main.workAfter").total()).isEqualTo(100);
        assertThat(without.child("app.Main.run").child("app.Main.burstBefore")).isNull();
    }

    private LookbackRecorder recorder(Duration tick) {
        return new LookbackRecorder(settings(), source, lock, time, threadFactory, tick);
    }

    private static LookbackSettings settings() {
        return new LookbackSettings(WINDOW, Duration.ofMillis(20), Duration.ofMillis(10), 512, 44_000, false);
    }

    private SelectedRecording startSession() throws Exception {
        return selector.start(EngineChoice.AUTO, EngineSettings.of(Duration.ofMillis(10), 512, workDirectory),
                (f, t, w) -> { });
    }
}
