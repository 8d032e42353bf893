package dev.cpuprofiler.internal.lookback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.EnginesHere;
import dev.cpuprofiler.internal.engine.JfrCpuTimeEngine;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A session takes over from the look-back through {@code handOver()}: the call must return at once, so the session's
 * engine starts right away, yet the look-back must keep the samples taken up to it (the last second before a trigger
 * is the likeliest culprit) and none of the session's own recording of the same event, which the look-back's stream
 * sees as well (JFR streams read the shared repository). Real JFR, both events; figures are printed, never timed.
 */
class JfrHandOverTest {

    private static final Duration PERIOD = Duration.ofMillis(20);
    private static final Duration GENEROUS = Duration.ofSeconds(10);
    private static final String BUSY = "busy";

    @TempDir
    Path dir;

    private final SampleLog sink = new SampleLog();
    private final AtomicBoolean working = new AtomicBoolean(true);
    private LookbackSource.Recording recording;
    private volatile long blackhole;

    @AfterEach
    void end() {
        working.set(false);
        if (recording != null) {
            recording.cancel();
        }
    }

    @ParameterizedTest
    @EnumSource(JfrSampleEvent.class)
    void handOverReturnsAtOnceAndTheSamplesUpToItStillArrive(JfrSampleEvent event) throws Exception {
        start(event);
        Thread.sleep(1_500);  // the samples of the last second wait in JFR's buffers for the next flush

        Instant handOverAt = Instant.now();
        long t0 = System.nanoTime();
        CompletionStage<Void> delivered = recording.handOver();
        double returnedMs = (System.nanoTime() - t0) / 1e6;
        delivered.toCompletableFuture().get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
        double deliveredMs = (System.nanoTime() - t0) / 1e6;

        SampleLog.Around d = sink.around(handOverAt, BUSY);
        System.out.printf("[hand-over %s, Java %s] handOver() returned in %.2f ms; samples delivered %.0f ms later; "
                        + "busy samples in the last second before it %d, in the second before that %d; newest %d ms "
                        + "before it%n", event.name, Runtime.version().feature(), returnedMs, deliveredMs,
                d.lastSecond(), d.secondBefore(), d.newestGapMillis());
        assertThat(d.secondBefore()).as("samples of the second before the last: the stream sampled").isPositive();
        assertThat(d.lastSecond()).as("samples of the last second before the hand-over, which the flush after it "
                + "delivers").isGreaterThanOrEqualTo(d.secondBefore() / 2);
        assertThat(d.after()).as("samples stamped after the hand-over").isZero();

        // Idempotent, and stop() or cancel() afterwards are harmless.
        assertThat(recording.handOver()).isSameAs(delivered);
        recording.stop();
        recording.cancel();
        assertThat(sink.around(handOverAt, BUSY).after()).isZero();
    }

    /** What a stop() costs, for comparison: it waits for the flush that a hand-over leaves to the stream's thread. */
    @ParameterizedTest
    @EnumSource(JfrSampleEvent.class)
    void stopReturnsOnceTheSamplesUpToItHaveArrived(JfrSampleEvent event) throws Exception {
        start(event);
        Thread.sleep(1_500);

        Instant stopAt = Instant.now();
        long t0 = System.nanoTime();
        recording.stop();
        double stoppedMs = (System.nanoTime() - t0) / 1e6;

        SampleLog.Around d = sink.around(stopAt, BUSY);
        System.out.printf("[stop %s, Java %s] stop() returned in %.0f ms; busy samples in the last second before it "
                        + "%d, in the second before that %d%n", event.name, Runtime.version().feature(), stoppedMs,
                d.lastSecond(), d.secondBefore());
        assertThat(d.secondBefore()).isPositive();
        assertThat(d.lastSecond()).isGreaterThanOrEqualTo(d.secondBefore() / 2);
        assertThat(d.after()).isZero();
    }

    @ParameterizedTest
    @EnumSource(JfrSampleEvent.class)
    void noSampleOfASessionThatRecordsTheSameEventRightAfterTheHandOverReachesTheLookback(JfrSampleEvent event)
            throws Exception {
        start(event);
        Thread.sleep(1_200);

        Instant handOverAt = Instant.now();
        CompletionStage<Void> delivered = recording.handOver();
        Path file = dir.resolve("session.jfr");
        Instant deliveredAt;
        try (Recording session = new Recording()) {
            // As the session's engine does, at its own, finer period.
            if (event == JfrSampleEvent.CPU_TIME) {
                session.enable(event.name).with("throttle", "10ms").withStackTrace();
            } else {
                session.enable(event.name).withPeriod(Duration.ofMillis(10)).withStackTrace();
            }
            session.start();
            delivered.toCompletableFuture().get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
            deliveredAt = Instant.now();
            Thread.sleep(200);
            session.stop();
            session.dump(file);
        }

        long sessionWhileStreamOpen = 0;
        long sessionBeforeHandOver = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            Instant at = e.getStartTime();
            if (e.getEventType().getName().equals(event.name) && BUSY.equals(threadName(event, e))) {
                if (at.isBefore(handOverAt)) {
                    sessionBeforeHandOver++;
                } else if (at.isBefore(deliveredAt)) {
                    sessionWhileStreamOpen++;
                }
            }
        }
        SampleLog.Around d = sink.around(handOverAt, BUSY);
        System.out.printf("[hand-over %s next to a session, Java %s] session samples of the busy thread while the "
                        + "look-back stream was still open: %d (none reached it: %d after the hand-over); look-back "
                        + "samples in the last second %d; session samples stamped before the hand-over: %d%n",
                event.name, Runtime.version().feature(), sessionWhileStreamOpen, d.after(), d.lastSecond(),
                sessionBeforeHandOver);
        assertThat(sessionWhileStreamOpen).as("the session's samples the look-back's stream could have taken")
                .isPositive();
        assertThat(d.after()).as("look-back samples stamped after the hand-over").isZero();
        assertThat(d.lastSecond()).as("look-back samples of the last second before it").isPositive();
    }

    @ParameterizedTest
    @EnumSource(JfrSampleEvent.class)
    void aHandOverWhoseFlushDoesNotComeInTimeEndsAnywayAndDeliversNothingAfterwards(JfrSampleEvent event)
            throws Exception {
        assumeRunnable(event);
        // A 1 ms wait for the flush: the bounded wait always ends the hand-over, as when JFR is starved.
        recording = JfrSampleStream.start(event, PERIOD, sink, 512, daemon(), DiskSpaceGuard.auto(),
                JfrPeriodicTaskKeeper.none(), Duration.ofMillis(1));
        Thread busy = Workloads.startOn(BUSY, this::work);
        await().atMost(GENEROUS).until(() -> sink.count() > 0);

        recording.handOver().toCompletableFuture().get(GENEROUS.toSeconds(), TimeUnit.SECONDS);
        long atEnd = sink.count();
        Thread.sleep(2_500);  // two flushes

        assertThat(sink.count()).as("samples delivered after the hand-over ended").isEqualTo(atEnd);
        working.set(false);
        busy.join();
    }

    private void start(JfrSampleEvent event) throws Exception {
        assumeRunnable(event);
        LookbackSource source = event == JfrSampleEvent.CPU_TIME
                ? new JfrCpuTimeSampleSource(512, daemon(), DiskSpaceGuard.auto())
                : new JfrExecutionSampleSource(512, daemon(), DiskSpaceGuard.auto());
        recording = source.start(PERIOD, sink);
        Workloads.startOn(BUSY, this::work);
        await().atMost(GENEROUS).until(() -> sink.count() > 0);
    }

    /**
     * The event's engine runs here; and jdk.ExecutionSample only where jdk.CPUTimeSample does not: the hand-over is
     * JFR's stream, the same for both events on one JDK, so JDK 25 judges it with the default install's event (12 s
     * fewer in .ci/run's JDK 25 pass), and JDK 17 with the only one it has.
     */
    private static void assumeRunnable(JfrSampleEvent event) {
        if (event == JfrSampleEvent.CPU_TIME) {
            EnginesHere.assumeRunnable(JfrCpuTimeEngine.ID);
        } else {
            Assumptions.assumeFalse(EnginesHere.cpuTimeExpected(), () -> {
                String why = "jdk.ExecutionSample: the hand-over is judged with jdk.CPUTimeSample on this JDK";
                System.out.println("[skip] " + why);
                return why;
            });
        }
    }

    private void work() {
        long x = 1;
        while (working.get()) {
            x += Workloads.crunch(200_000, x);
        }
        blackhole = x;
    }

    private static ThreadFactory daemon() {
        return r -> {
            Thread t = new Thread(r, "lookback-stream-test");
            t.setDaemon(true);
            return t;
        };
    }

    private static String threadName(JfrSampleEvent event, RecordedEvent e) {
        var thread = event.threadOf(e);
        return thread == null ? null : thread.getJavaName();
    }
}
