package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import static dev.cpuprofiler.internal.lookback.LookbackWithRealEnginesTest.weightOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.internal.engine.EngineLock;
import dev.cpuprofiler.internal.engine.EngineSelector;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.EnginesHere;
import dev.cpuprofiler.internal.engine.JfrCpuTimeEngine;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.SelectedRecording;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.StackTreeSnapshot;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CPU-time look-back (JDK 25+, Linux) weighs each thread by the CPU it used, in the sessions' unit: a thread that
 * burned one second of CPU weighs one second's worth of 10 ms session samples, whatever period JFR sampled at, and a
 * thread that waited weighs nothing. So its shares compare with a jfr-cpu-time session's, which it precedes.
 */
class CpuTimeLookbackTest {

    private static final Duration UNIT = Duration.ofMillis(10);
    private static final Duration PERIOD = Duration.ofMillis(20);
    private static final Duration CPU = Duration.ofSeconds(1);
    private static final long CPU_UNITS = CPU.toMillis() / UNIT.toMillis();
    private static final int DEPTH = 512;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @TempDir
    Path workDirectory;

    private LookbackRing ring;
    private LookbackSource.Recording recording;
    private static volatile long blackhole;

    @BeforeEach
    void onlyWhereTheJvmHasIt() {
        EnginesHere.assumeRunnable(JfrCpuTimeEngine.ID);
        ring = newRing();
    }

    @AfterEach
    void end() {
        if (recording != null) {
            recording.cancel();
        }
    }

    @Test
    void aThreadWeighsTheCpuItUsedAndAWaitingThreadNothing() throws Exception {
        Delivered delivered = new Delivered(ring);
        ReadyThread burner = new ReadyThread("burner", CpuTimeLookbackTest::cpuTimeLookbackBurn);
        recording = source().start(PERIOD, delivered);
        CountDownLatch done = new CountDownLatch(1);
        Thread waiting = Workloads.startOn("waiting", () -> waitsForTheBurner(done));

        burner.runAndJoin();
        done.countDown();
        waiting.join();
        recording.handOver().toCompletableFuture().get(10, TimeUnit.SECONDS);

        LookbackRing.Contents c = ring.contents(Instant.now());
        long burn = weightOf(c.tree(), "cpuTimeLookbackBurn");
        System.out.printf("[cpu-time look-back] 1 s of CPU weighs %d units of %d ms (%d samples in all; the burner's "
                + "by period %s); the waiting thread %d%n", burn, UNIT.toMillis(), c.samples(), delivered.burnerPeriods,
                weightOf(c.tree(), "waitsForTheBurner"));
        assertThat(delivered.twice.get()).as("samples delivered twice (same thread, same instant)").isZero();
        assertThat(burn).as("weight of one second of CPU in 10 ms units").isBetween(CPU_UNITS * 7 / 10,
                CPU_UNITS * 13 / 10);
        assertThat(weightOf(c.tree(), "waitsForTheBurner")).as("weight of a thread that waited").isZero();
    }

    /** A user's recording at 10 ms makes JFR sample ours at 10 ms too: twice the samples, each weighing half. */
    @Test
    void aFinerPeriodFromAnotherRecordingLeavesTheWeightOfTheCpuUnchanged() throws Exception {
        ReadyThread burner = new ReadyThread("burner", CpuTimeLookbackTest::cpuTimeLookbackBurn);
        recording = source().start(PERIOD, ring::add);
        try (jdk.jfr.Recording user = new jdk.jfr.Recording()) {
            user.enable("jdk.CPUTimeSample").with("throttle", "10ms");
            user.start();

            burner.runAndJoin();
            recording.handOver().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }

        LookbackRing.Contents c = ring.contents(Instant.now());
        long burn = weightOf(c.tree(), "cpuTimeLookbackBurn");
        System.out.printf("[cpu-time look-back next to a 10 ms recording] 1 s of CPU weighs %d units (%d samples in "
                + "all); period %s%n", burn, c.samples(), recording.effectivePeriod());
        assertThat(c.samples()).as("samples: JFR sampled every 10 ms, not 20").isGreaterThanOrEqualTo(CPU_UNITS * 7 / 10);
        assertThat(recording.effectivePeriod()).isEqualTo(Duration.ofMillis(10));
        assertThat(burn).isBetween(CPU_UNITS * 7 / 10, CPU_UNITS * 13 / 10);
    }

    /** The look-back's second of CPU and the session's second of CPU weigh alike. */
    @Test
    void lookbackAndSessionWeighTheSameCpuAlike() throws Exception {
        double ratio = weighOnce();
        if (ratio < 0.7 || ratio > 1.43) {
            // 3 runs in 13 (JDK 25.0.3, CI) weighed the look-back's second twice: 98 samples of the burner, each
            // saying 20 ms, none delivered twice: likely a thread with two CPU timers (see ReadyThread). Once more,
            // with a fresh ring and stream; twice in a row fails.
            System.out.println("[cpu-time look-back vs jfr-cpu-time session] ratio " + ratio + ": measuring again");
            recording.cancel();
            ring = newRing();
            ratio = weighOnce();
        }
        assertThat(ratio).as("look-back / session weight of the same CPU").isBetween(0.7, 1.43);
    }

    /** The look-back's weight of a second of CPU over a jfr-cpu-time session's, after the checks that never vary. */
    private double weighOnce() throws Exception {
        // What reached the ring, to tell a duplicate delivery from a period that lies when the weight is off (one CI
        // run in about ten weighed the look-back's second of CPU twice: 196 units against the session's 99).
        Delivered delivered = new Delivered(ring);
        ReadyThread burner = new ReadyThread("burner", CpuTimeLookbackTest::cpuTimeLookbackBurn);
        ReadyThread sessionBurner = new ReadyThread("session-burner", CpuTimeLookbackTest::cpuTimeSessionBurn);
        recording = source().start(PERIOD, delivered);
        burner.runAndJoin();
        recording.handOver();  // the session starts at once, as a CPU-triggered one does

        StackTree session = new StackTree(DEPTH, 200_000, false);
        EngineSelector engines = new EngineSelector(EngineSelector.standardEngines(), new EngineLock());
        SelectedRecording s = engines.start(EngineChoice.JFR_CPU_TIME,
                EngineSettings.of(UNIT, DEPTH, workDirectory, "session"), session);
        sessionBurner.runAndJoin();
        EngineRecording.Result result = s.stop();
        if (result.jfrFile() != null) {
            Files.deleteIfExists(result.jfrFile());
        }
        recording.handOver().toCompletableFuture().get(10, TimeUnit.SECONDS);

        StackTreeSnapshot lookbackPart = ring.contents(Instant.now()).tree();
        StackTreeSnapshot sessionPart = session.snapshot();
        long inLookback = weightOf(lookbackPart, "cpuTimeLookbackBurn");
        long inSession = weightOf(sessionPart, "cpuTimeSessionBurn");
        System.out.printf("[cpu-time look-back vs jfr-cpu-time session] 1 s of CPU each: look-back %d, session %d "
                + "units; session work in the look-back part %d; the burner's look-back samples by period %s, "
                + "delivered twice %d%n", inLookback, inSession, weightOf(lookbackPart, "cpuTimeSessionBurn"),
                delivered.burnerPeriods, delivered.twice.get());
        assertThat(delivered.twice.get()).as("look-back samples delivered twice (same thread, same instant)").isZero();
        assertThat(weightOf(lookbackPart, "cpuTimeSessionBurn")).as("the session's work in the look-back part")
                .isZero();
        assertThat(inSession).isPositive();
        return (double) inLookback / inSession;
    }

    /** Hands the stream's samples to the ring, counting those delivered twice and the burner's by their period. */
    private static final class Delivered implements LookbackSource.Sink {

        final Set<String> seen = ConcurrentHashMap.newKeySet();
        final AtomicLong twice = new AtomicLong();
        final Map<Duration, Long> burnerPeriods = new ConcurrentHashMap<>();
        private final LookbackRing ring;

        Delivered(LookbackRing ring) {
            this.ring = ring;
        }

        @Override
        public void accept(Instant at, List<Frame> frames, String thread, Duration period) {
            if (!seen.add(at + " " + thread)) {
                twice.incrementAndGet();
            }
            if ("burner".equals(thread)) {
                burnerPeriods.merge(period, 1L, Long::sum);
            }
            ring.add(at, frames, thread, period);
        }
    }

    private static LookbackRing newRing() {
        return new LookbackRing(TestRecorders.options(Duration.ofSeconds(30), PERIOD, UNIT, DEPTH));
    }

    private JfrCpuTimeSampleSource source() {
        ThreadFactory daemon = r -> {
            Thread t = new Thread(r, "lookback-stream-test");
            t.setDaemon(true);
            return t;
        };
        return new JfrCpuTimeSampleSource(DEPTH, daemon, DiskSpaceGuard.auto());
    }

    /**
     * A thread that exists before the recording under test starts, and works when told. The look-back's second of CPU
     * weighed 196 units against the session's 99 in 3 CI runs of 13 (JDK 25.0.3), its stream starting on a thread of
     * its own while the burner started. The likely cause, read in JDK 25's jfrCPUTimeThreadSampler.cpp: when the
     * sampler starts, it creates a CPU timer for every listed thread, and a thread that is starting creates its own,
     * so a thread caught in between may get two, and is then sampled twice as often as its samples say. Not
     * reproduced in isolation (115 rounds of a stream started next to a new thread); the product's side of it is
     * filed as its own issue. Here the burner is not its subject, so it starts first.
     */
    private static final class ReadyThread {

        private final CountDownLatch running = new CountDownLatch(1);
        private final CountDownLatch go = new CountDownLatch(1);
        private final Thread thread;

        ReadyThread(String name, Runnable work) throws InterruptedException {
            thread = new Thread(() -> {
                running.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                work.run();
            }, name);
            thread.setDaemon(true);
            thread.start();
            running.await(); // past the JVM's thread start, where a new thread gets its timer
        }

        void runAndJoin() throws InterruptedException {
            go.countDown();
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
    }

    static void cpuTimeLookbackBurn() {
        burnCpu(CPU);
    }

    static void cpuTimeSessionBurn() {
        burnCpu(CPU);
    }

    /** Burns until this thread has used {@code cpu} of CPU time (however long that takes on a shared machine). */
    private static void burnCpu(Duration cpu) {
        long start = THREADS.getCurrentThreadCpuTime();
        long x = 1;
        while (THREADS.getCurrentThreadCpuTime() - start < cpu.toNanos()) {
            x += Workloads.crunch(200_000, x);
        }
        blackhole = x;
    }

    private static void waitsForTheBurner(CountDownLatch done) {
        try {
            done.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
