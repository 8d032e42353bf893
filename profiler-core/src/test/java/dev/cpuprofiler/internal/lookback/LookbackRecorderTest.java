package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.trigger.Holds;
import dev.cpuprofiler.internal.stack.LookbackTrees;

import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.CpuProfilerStatus;

import static dev.cpuprofiler.internal.lookback.TestRecorders.stepAside;
import static dev.cpuprofiler.internal.lookback.TestRecorders.alwaysArmed;
import static dev.cpuprofiler.internal.lookback.LookbackRingTest.stack;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.internal.engine.EngineLock;
import dev.cpuprofiler.internal.engine.EngineSelector;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.SelectedRecording;
import dev.cpuprofiler.internal.stack.StackNode;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.FakeTime;
import dev.cpuprofiler.internal.testing.LogCapture;
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

/**
 * The recorder's hand-over with sessions, with a fake sampler and a fake session engine behind the real lock. Most
 * tests tick the recorder themselves ({@link LookbackRecorder#tick()}) on the fake clock: "still waiting" is asserted
 * after the ticks that would have resumed it have run, never after a sleep. The others tick it on a thread
 * ({@link LookbackTicks}), as the CPU sampler does in production.
 */
class LookbackRecorderTest {

    private static final Duration WINDOW = Duration.ofSeconds(30);
    /** No ticking thread: the test drives the ticks by hand. */
    private static final Duration NEVER = Duration.ZERO;

    @TempDir
    Path workDirectory;

    private final OverlapDetector detector = new OverlapDetector();
    private final FakeLookbackSource source = new FakeLookbackSource(detector);
    private final EngineLock lock = new EngineLock();
    private final EngineSelector selector = new EngineSelector(List.of(new FakeSessionEngine(detector)), lock);
    private final FakeTime time = new FakeTime();
    private final Holds holds = new Holds();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final ThreadFactory threadFactory = r -> {
        Thread t = new Thread(r, "lookback-test-ticker");
        t.setDaemon(true);
        threads.add(t);
        return t;
    };
    private LookbackRecorder recorder;
    private LookbackTicks ticks;

    @AfterEach
    void close() {
        if (ticks != null) {
            ticks.close();
        }
        if (recorder != null) {
            recorder.close();
        }
    }

    @Test
    void whileLookbackRecordsNoSessionCanStart() {
        recorder = recorder(NEVER);
        recorder.start();

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        assertThat(lock.holder()).hasValueSatisfying(h -> assertThat(h).startsWith("look-back"));
        assertThatThrownBy(this::startSession).isInstanceOf(EngineLock.BusyException.class)
                .hasMessageContaining("look-back");
        assertThat(detector.mostAtOnce()).isEqualTo(1);
    }

    @Test
    void steppingAsideHandsOverTheWindowAndFreesTheEngineForTheSession() throws Exception {
        recorder = recorder(NEVER);
        recorder.start();
        Instant start = time.instant();
        for (int i = 0; i < 100; i++) {
            time.advance(Duration.ofMillis(20));
            source.sample(time.instant(), stack("app.Main.run", "app.Main.burst"), "main");
        }

        LookbackSnapshot snapshot = stepAside(recorder).orElseThrow();
        SelectedRecording session = startSession();

        assertThat(snapshot.samples()).isEqualTo(100);
        assertThat(snapshot.weight()).as("20 ms samples in 10 ms units").isEqualTo(200);
        assertThat(StackNode.of(snapshot.tree()).child("app.Main.run").child("app.Main.burst").total()).isEqualTo(200);
        assertThat(snapshot.startedAt()).isEqualTo(start);
        assertThat(snapshot.endedAt()).isEqualTo(time.instant());
        assertThat(snapshot.samplingPeriod()).isEqualTo(Duration.ofMillis(20));
        assertThat(snapshot.weightUnit()).isEqualTo(Duration.ofMillis(10));
        assertThat(source.isRecording()).isFalse();
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.STEPPED_ASIDE);
        assertThat(lock.holder()).hasValueSatisfying(h -> assertThat(h).contains("recording 'cpuprofile'"));
        session.stop();
        assertThat(detector.mostAtOnce()).isEqualTo(1);
    }

    @Test
    void resumingWhileTheSessionRecordsWaitsForItThenRecordsAgain() throws Exception {
        recorder = recorder(NEVER);
        recorder.start();
        stepAside(recorder);
        SelectedRecording session = startSession();

        recorder.resume();

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.WAITING);
        assertThat(recorder.status().reason()).contains("recording 'cpuprofile'");
        for (int i = 0; i < 10; i++) {  // ten ticks, each trying the lock: still waiting, never sampling next to it
            time.advance(Duration.ofSeconds(1));
            recorder.tick();
            assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.WAITING);
            assertThat(recorder.status().reason()).contains("recording 'cpuprofile'");
        }
        assertThat(source.isRecording()).isFalse();
        assertThat(source.starts.get()).isEqualTo(1);

        session.stop();
        recorder.tick();  // the next tick takes the lock the session left

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        assertThat(source.isRecording()).isTrue();
        assertThat(source.starts.get()).isEqualTo(2);
        assertThat(detector.mostAtOnce()).isEqualTo(1);
    }

    @Test
    void itsOwnTickerResumesOnceTheSessionHasEnded() throws Exception {
        recorder = recorder(Duration.ofMillis(10));
        recorder.start();
        stepAside(recorder);
        SelectedRecording session = startSession();
        recorder.resume();
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.WAITING);

        session.stop();

        // Nothing but the ticking thread calls tryRecord now: reaching ARMED proves a tick retries the lock.
        await().atMost(Duration.ofSeconds(5)).until(() -> recorder.status().state() == CpuProfilerStatus.LookbackState.ARMED);
        assertThat(source.starts.get()).isEqualTo(2);
        assertThat(threads).extracting(Thread::getName).containsExactly("lookback-test-ticker");
        assertThat(detector.mostAtOnce()).isEqualTo(1);
    }

    @Test
    void lookbackAndSessionsNeverSampleAtTheSameTime() throws Exception {
        recorder = alwaysArmed(settings(), holds, source, lock, java.time.Clock.systemUTC());
        ticks = LookbackTicks.every(recorder, Duration.ofMillis(1), threadFactory);
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
        // How often the poker's resume() wins the lock depends on scheduling (on a loaded 2-core machine it wins
        // most rounds), so run until enough sessions started instead of a fixed number of rounds.
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        try {
            for (int round = 0; sessions < 100 && round < 100_000 && System.nanoTime() < deadline; round++) {
                Optional<LookbackSnapshot> snapshot = stepAside(recorder);
                assertThat(snapshot).isPresent();
                SelectedRecording session;
                try {
                    session = startSession();
                } catch (EngineLock.BusyException busy) {
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
        assertThat(sessions).as("sessions that got the engine lock").isGreaterThanOrEqualTo(100);
        assertThat(detector.mostAtOnce()).as("samplers running at once").isEqualTo(1);
    }

    @Test
    void afterACpuTriggeredSessionItResumesOneWindowBeforeTheCooldownEnds() {
        recorder = recorder(NEVER);
        recorder.start();
        stepAside(recorder);
        Instant cooldownEnd = time.instant().plus(Duration.ofHours(4));
        holds.startCooldown(cooldownEnd);  // the session ended: the trigger's cooldown, which the look-back reads

        recorder.resume();

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
        assertThat(recorder.status().armsFrom()).isEqualTo(cooldownEnd.minus(WINDOW));
        assertThat(recorder.status().reason()).contains("cooldown").contains("may arm again from");
        time.advance(Duration.ofHours(4).minus(WINDOW).minusSeconds(1));
        recorder.tick();  // a second early
        assertThat(source.isRecording()).as("sampling during the cooldown").isFalse();
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
        assertThat(source.starts.get()).isEqualTo(1);

        time.advance(Duration.ofSeconds(1));
        recorder.tick();

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        assertThat(source.starts.get()).isEqualTo(2);
        assertThat(recorder.status().armsFrom()).isNull();
    }

    @Test
    void aSessionWithNoCooldownAfterItResumesItAtOnce() {
        recorder = recorder(NEVER);
        recorder.start();
        stepAside(recorder);

        recorder.resume();  // an on-demand session, or a cooldown of zero

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        assertThat(source.starts.get()).isEqualTo(2);
    }

    @Test
    void aSessionStartingBeforeTheResumeTimeKeepsItAside() {
        recorder = recorder(NEVER);
        recorder.start();
        stepAside(recorder);
        holds.startCooldown(time.instant().plus(WINDOW).plus(Duration.ofMinutes(5)));
        recorder.resume();

        stepAside(recorder);  // an on-demand session during the cooldown
        time.advance(Duration.ofMinutes(10));
        recorder.tick();  // past the time it could have armed from: the session holds it aside until it resumes it

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.STEPPED_ASIDE);
        assertThat(recorder.status().armsFrom()).isNull();
        assertThat(source.starts.get()).isEqualTo(1);
    }

    /**
     * After a session the look-back records again, but not after one the shutdown stopped: no engine starts again
     * while the application shuts down (the web server may drain requests for many seconds before the profiler
     * closes).
     */
    @Test
    void aSessionStoppedByTheShutdownDoesNotRestartIt() {
        recorder = recorder(NEVER);
        recorder.start();
        stepAside(recorder);

        holds.shutDown("the profiler is shutting down");
        recorder.resume();
        time.advance(Duration.ofMinutes(1));
        recorder.tick();

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.STEPPED_ASIDE);
        assertThat(source.starts.get()).isEqualTo(1);
        assertThat(lock.holder()).isEmpty();
    }

    @Test
    void aCoverageShorterThanTheWindowIsSaid() {
        recorder = recorder(NEVER);
        recorder.start();
        Instant start = time.instant();
        time.advance(Duration.ofSeconds(10));

        LookbackSnapshot snapshot = stepAside(recorder).orElseThrow();

        assertThat(snapshot.startedAt()).isEqualTo(start);
        assertThat(snapshot.duration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(snapshot.notes()).anySatisfy(n -> assertThat(n).contains("covers 10.0 s of its PT30S window"));
    }

    @Test
    void aLongRunningLookbackReachesBackOneWindowAtMost() {
        recorder = recorder(NEVER);
        recorder.start();
        for (int i = 0; i < 5 * 60 * 50; i++) {
            time.advance(Duration.ofMillis(20));
            source.sample(time.instant(), stack("app.Main.run"), "main");
        }

        LookbackSnapshot snapshot = stepAside(recorder).orElseThrow();

        assertThat(snapshot.duration()).isLessThanOrEqualTo(WINDOW).isGreaterThan(WINDOW.minusSeconds(3));
        assertThat(snapshot.samples()).isLessThanOrEqualTo(WINDOW.toMillis() / 20 + 1);
        assertThat(snapshot.notes()).isEmpty();
    }

    @Test
    void aFinerPeriodImposedByAnotherRecordingIsWeighedAndSaid() throws Exception {
        recorder = recorder(NEVER);
        recorder.start();
        source.imposePeriod(Duration.ofMillis(10));
        assertThat(recorder.status().samplingPeriod()).as("noticed on the next tick").isEqualTo(Duration.ofMillis(20));
        recorder.tick();
        assertThat(recorder.status().samplingPeriod()).isEqualTo(Duration.ofMillis(10));
        for (int i = 0; i < 100; i++) {
            time.advance(Duration.ofMillis(10));
            source.sample(time.instant(), stack("app.Main.run"), "main");
        }

        LookbackSnapshot snapshot = stepAside(recorder).orElseThrow();

        assertThat(snapshot.weight()).as("10 ms samples in 10 ms units").isEqualTo(100);
        assertThat(snapshot.samplingPeriod()).isEqualTo(Duration.ofMillis(10));
        assertThat(snapshot.notes()).anySatisfy(n -> assertThat(n).contains("another JFR recording"));
    }

    @Test
    void aSamplerThatCannotRunLeavesTheEngineFreeAndSaysWhy() throws Exception {
        recorder = alwaysArmed(settings(), holds,
                FakeLookbackSource.refusing("JFR is not available here"), lock, time);
        recorder.start();

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.UNAVAILABLE);
        assertThat(recorder.status().reason()).isEqualTo("JFR is not available here");
        assertThat(lock.holder()).isEmpty();
        LookbackSnapshot snapshot = stepAside(recorder).orElseThrow();
        assertThat(snapshot.samples()).isZero();
        assertThat(snapshot.notes()).containsExactly("look-back was not recording: JFR is not available here");
        startSession().stop();
    }

    @Test
    void aRecordingThatMustEndFreesTheEngineSaysWhyOnceAndIsRetriedAMinuteLater() throws Exception {
        try (LogCapture logs = new LogCapture()) {
            recorder = recorder(NEVER);
            recorder.start();
            assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);

            source.failRunning("only 10 MB of 96 MB free (JFR's repository)");
            source.refuse("only 10 MB of 96 MB free (JFR's repository)");
            recorder.tick();
            assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.UNAVAILABLE);
            assertThat(recorder.status().reason()).contains("only 10 MB");
            assertThat(lock.holder()).isEmpty();
            assertThat(source.isRecording()).isFalse();
            assertThat(source.starts.get()).isEqualTo(1);

            time.advance(Duration.ofSeconds(59));
            recorder.tick();  // within the minute: no retry
            assertThat(logs.messages(Level.DEBUG)).noneMatch(m -> m.contains("still cannot record"));

            time.advance(Duration.ofSeconds(2));  // the retry a minute later is refused too: not said again
            recorder.tick();
            assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.UNAVAILABLE);
            assertThat(logs.messages(Level.DEBUG)).filteredOn(m -> m.contains("still cannot record")).hasSize(1);
            assertThat(logs.messages(Level.WARN)).filteredOn(m -> m.contains("Look-back cannot record")).hasSize(1);

            source.refuse(null);  // space again
            time.advance(Duration.ofSeconds(61));
            recorder.tick();
            assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
            assertThat(source.starts.get()).isEqualTo(2);
            assertThat(logs.messages(Level.INFO)).anySatisfy(m -> assertThat(m).contains("records again"));
        }
    }

    @Test
    void closingStopsSamplingAndFreesTheEngineEvenWhileTicked() throws Exception {
        recorder = recorder(Duration.ofMillis(10));
        recorder.start();

        recorder.close();
        Thread.sleep(50); // five more ticks: a closed recorder must not start sampling again
        assertThat(source.isRecording()).isFalse();
        assertThat(source.starts.get()).isEqualTo(1);
        assertThat(lock.holder()).isEmpty();
        assertThat(stepAside(recorder)).isEmpty();
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.STOPPED);
    }

    @Test
    void lookbackOffRecordsNothingAndNeverTakesTheEngine() throws Exception {
        Lookback off = Lookback.off();
        off.start();

        assertThat(stepAside(off)).isEmpty();
        assertThat(off.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.OFF);
        assertThat(lock.holder()).isEmpty();
        startSession().stop();
    }

    @Test
    void theSnapshotMergesIntoASessionTreeWithComparableWeights() {
        recorder = recorder(NEVER);
        recorder.start();
        for (int i = 0; i < 50; i++) {  // one second of look-back at 20 ms
            time.advance(Duration.ofMillis(20));
            source.sample(time.instant(), stack("app.Main.run", "app.Main.burstBefore"), "main");
        }
        LookbackSnapshot snapshot = stepAside(recorder).orElseThrow();
        StackTree session = new StackTree(512, 10_000, false);
        for (int i = 0; i < 100; i++) {  // one second of session at 10 ms
            session.accept(stack("app.Main.run", "app.Main.workAfter"), "main", 1);
        }

        StackNode withLookback = StackNode.of(LookbackTrees.combined(session.snapshot(), snapshot, 512, 10_000, false));
        StackNode without = StackNode.of(session.snapshot());

        assertThat(withLookback.child("app.Main.run").child("app.Main.burstBefore").total()).isEqualTo(100);
        assertThat(withLookback.child("app.Main.run").child("app.Main.workAfter").total()).isEqualTo(100);
        assertThat(without.child("app.Main.run").child("app.Main.burstBefore")).isNull();
    }

    private LookbackRecorder recorder(Duration tick) {
        LookbackRecorder r = alwaysArmed(settings(), holds, source, lock, time);
        if (!tick.isZero()) {
            ticks = LookbackTicks.every(r, tick, threadFactory);
        }
        return r;
    }

    private static CpuProfilerOptions settings() {
        return TestRecorders.options(WINDOW, Duration.ofMillis(20), Duration.ofMillis(10), 512);
    }

    private SelectedRecording startSession() throws Exception {
        return selector.start(EngineChoice.AUTO, EngineSettings.of(Duration.ofMillis(10), 512, workDirectory),
                (f, t, w) -> { });
    }
}
