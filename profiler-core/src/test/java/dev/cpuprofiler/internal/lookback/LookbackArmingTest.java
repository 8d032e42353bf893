package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.trigger.Holds;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.LookbackSnapshot;

import static dev.cpuprofiler.internal.lookback.LookbackRingTest.stack;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.internal.engine.EngineLock;
import dev.cpuprofiler.internal.testing.FakeTime;
import dev.cpuprofiler.internal.testing.LogCapture;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the look-back records: it is driven by the CPU sampler's tick ({@link LookbackRecorder#onSample}), here with
 * one CPU sample per second of a fake clock. Idle it starts nothing; it arms when the mean of the last three CPU
 * samples exceeds 60% of the 80% threshold (48%), and disarms once the CPU stayed at or below that for its window.
 */
class LookbackArmingTest {

    private static final Duration WINDOW = Duration.ofSeconds(30);
    private static final Duration SECOND = Duration.ofSeconds(1);

    private final OverlapDetector detector = new OverlapDetector();
    private final FakeLookbackSource source = new FakeLookbackSource(detector);
    private final EngineLock lock = new EngineLock();
    private final FakeTime time = new FakeTime();
    private final Holds holds = new Holds();
    private LookbackRecorder recorder;

    @AfterEach
    void close() {
        if (recorder != null) {
            recorder.close();
        }
    }

    /** A recorder whose start-up grace, the trigger's, lasts {@code grace} from now. */
    private LookbackRecorder recorder(Duration grace) {
        // Threshold 80, arming ratio 0.6, CPU read each second.
        CpuProfilerOptions options = TestRecorders.options(WINDOW, Duration.ofMillis(20), Duration.ofMillis(10), 512);
        options.setAverageWindow(WINDOW);
        options.setLookback(WINDOW);
        options.getSaturation().setEnabled(false);
        holds.startGrace(grace.isZero() ? null : time.instant().plus(grace));
        return new LookbackRecorder(options, holds, source, lock, time, () -> Double.NaN);
    }

    /** One CPU sample a second. */
    private void cpu(double... percents) {
        for (double p : percents) {
            time.advance(SECOND);
            recorder.onSample(time.nanoTime(), 0, p);
        }
    }

    @Test
    void anIdleApplicationRunsNoRecordingAndTheStatusSaysWhy() {
        recorder = recorder(Duration.ZERO);
        recorder.start();

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
        assertThat(recorder.status().reason()).isEqualTo("waiting for 3 s of CPU samples");
        cpu(Double.NaN, 5, 10, 12);

        CpuProfilerStatus.Lookback status = recorder.status();
        assertThat(status.state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
        assertThat(status.armingPercent()).isEqualTo(48.0);
        assertThat(status.recentCpuPercent()).isEqualTo(9.0);
        assertThat(status.reason()).isEqualTo("the CPU over the last 3 s, 9.0%, is not above the arming level "
                + "48.0% (0.6 of the 80.0% threshold)");
        assertThat(source.starts.get()).as("recordings started").isZero();
        assertThat(lock.holder()).isEmpty();
    }

    @Test
    void oneBusySecondDoesNotArmItASustainedRiseDoes() {
        recorder = recorder(Duration.ZERO);
        recorder.start();

        cpu(10, 100, 10);  // mean 40%
        cpu(10, 70);       // 10, 10, 70: mean 30%
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);

        cpu(75);           // 10, 70, 75: mean 51.7%
        CpuProfilerStatus.Lookback status = recorder.status();
        assertThat(status.state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        assertThat(status.armedSince()).isEqualTo(time.instant());
        assertThat(status.reason()).isNull();
        assertThat(source.starts.get()).isEqualTo(1);
        assertThat(lock.holder()).hasValueSatisfying(h -> assertThat(h).startsWith("look-back"));
    }

    @Test
    void itDisarmsOnceTheCpuStayedBelowTheLevelForAWindowStoppingTheRecordingAndFreeingTheRing() {
        recorder = recorder(Duration.ZERO);
        recorder.start();
        cpu(90, 90, 90);
        assertThat(source.sample(time.instant(), stack("a.B.c"), "worker")).isTrue();
        assertThat(recorder.status().samples()).isEqualTo(1);

        cpu(20, 20, 20);   // below from the first of these on: the mean is at or below 48% from the second
        cpu(new double[26]);
        assertThat(recorder.status().state()).as("29 s after the last busy mean").isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        cpu(90, 90);       // busy again before the window is over: stays armed
        cpu(new double[29]);
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);

        try (LogCapture logs = new LogCapture()) {
            cpu(0, 0);
            assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
            assertThat(logs.messages(Level.INFO)).anyMatch(m -> m.startsWith("Look-back disarmed"));
        }
        assertThat(source.isRecording()).isFalse();
        assertThat(recorder.status().samples()).as("ring freed").isZero();
        assertThat(lock.holder()).isEmpty();
        assertThat(recorder.status().armedSince()).isNull();
    }

    @Test
    void theStartupGraceHoldsItBackAndTheStatusSaysUntilWhen() {
        recorder = recorder(Duration.ofSeconds(60));
        Instant start = time.instant();
        recorder.start();

        cpu(90, 90, 90, 90);
        CpuProfilerStatus.Lookback status = recorder.status();
        assertThat(status.state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
        assertThat(status.armsFrom()).isEqualTo(start.plusSeconds(60));
        assertThat(status.reason()).isEqualTo("start-up grace: it may arm from " + start.plusSeconds(60));
        assertThat(source.starts.get()).isZero();

        cpu(new double[55]);
        cpu(90, 90, 90);  // 62 s after start
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        assertThat(recorder.status().armsFrom()).isNull();
    }

    /** {@code seconds} CPU samples of {@code percent} each. */
    private void steady(int seconds, double percent) {
        double[] samples = new double[seconds];
        java.util.Arrays.fill(samples, percent);
        cpu(samples);
    }

    @Test
    void anApplicationThatSitsAboveTheFloorAllDayRecordsNothingUntilItRises() {
        recorder = recorder(Duration.ofSeconds(60));
        recorder.start();

        steady(60 + 600, 55);  // the start-up grace, then ten minutes at 55%: above the 48% floor all along

        CpuProfilerStatus.Lookback status = recorder.status();
        assertThat(status.state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
        assertThat(source.starts.get()).as("recordings started").isZero();
        assertThat(status.normalPercent()).isEqualTo(55.0);
        assertThat(status.armingPercent()).as("55% + 16 points").isEqualTo(71.0);
        assertThat(status.reason()).isEqualTo("the CPU over the last 3 s, 55.0%, is not above the arming level "
                + "71.0% (its normal, the lowest 10 s average of the last 2 min, is 55.0%: it arms on a rise of 16.0 "
                + "points above it, and above 0.6 of the 80.0% threshold)");

        steady(3, 70);
        assertThat(recorder.status().state()).as("70%: less than the rise").isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
        steady(2, 95);  // 70, 95, 95: mean 86.7%
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        assertThat(source.starts.get()).isEqualTo(1);
    }

    @Test
    void aPlateauBecomesTheNormalAndTheLookBackDisarms() {
        recorder = recorder(Duration.ofSeconds(60));
        recorder.start();
        steady(60 + 300, 40);
        steady(3, 75);
        assertThat(recorder.status().state()).as("a rise from 40% to 75%").isEqualTo(
                CpuProfilerStatus.LookbackState.ARMED);

        steady(120, 75);  // two minutes later 75% is the normal: the level is the threshold, 80%
        assertThat(recorder.status().armingPercent()).isEqualTo(80.0);
        steady(30, 75);
        CpuProfilerStatus.Lookback status = recorder.status();
        assertThat(status.state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
        assertThat(source.isRecording()).isFalse();
        assertThat(status.reason()).contains("is not above the arming level 80.0% (the threshold: its normal, "
                + "the lowest 10 s average of the last 2 min, is 75.0%, within 16.0 points of it)");

        steady(3, 85);
        assertThat(recorder.status().state()).as("above the threshold it always arms: a trigger can follow")
                .isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
    }

    @Test
    void aHandOverFreesTheEngineLockAtOnceAndTheSnapshotFollows() {
        recorder = recorder(Duration.ZERO);
        recorder.start();
        cpu(90, 90, 90);
        source.sample(time.instant().minusMillis(500), stack("a.B.rise"), "worker");

        Optional<LookbackHandOver> handOver = recorder.handOver();

        assertThat(lock.holder()).as("free for the session's engine before the snapshot").isEmpty();
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.STEPPED_ASIDE);
        LookbackSnapshot snapshot = handOver.orElseThrow().snapshot();
        assertThat(snapshot.samples()).isEqualTo(1);
        assertThat(snapshot.endedAt()).isEqualTo(time.instant());
        assertThat(handOver.get().snapshot()).as("taken once").isSameAs(snapshot);

        // After the session, still busy: armed again at once.
        recorder.resume();
        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.ARMED);
        assertThat(source.starts.get()).isEqualTo(2);
    }

    @Test
    void afterASessionInACalmApplicationItStaysIdle() {
        recorder = recorder(Duration.ZERO);
        recorder.start();
        cpu(90, 90, 90);
        recorder.handOver().orElseThrow().snapshot();
        cpu(10, 10, 10);

        recorder.resume();

        assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
        assertThat(source.starts.get()).isEqualTo(1);
    }

    @Test
    void armedWhileAnotherRecordingHoldsTheLockItWaitsAndGivesUpWhenTheCpuCalmsDown() {
        recorder = recorder(Duration.ZERO);
        recorder.start();
        EngineLock.Lease other = lock.tryAcquire("a profiling session").orElseThrow();
        try {
            cpu(90, 90, 90);
            assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.WAITING);
            assertThat(recorder.status().reason()).contains("a profiling session");

            cpu(new double[31]);
            assertThat(recorder.status().state()).isEqualTo(CpuProfilerStatus.LookbackState.IDLE);
            assertThat(source.starts.get()).isZero();
        } finally {
            other.release();
        }
    }
}
