package dev.cpuprofiler.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.JfrExecutionEngine;
import dev.cpuprofiler.internal.engine.ProfilingEngine;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackSink;
import dev.cpuprofiler.internal.testing.FakeCgroupV2Container;
import dev.cpuprofiler.internal.testing.FakeTime;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end, real threads and the process's real CPU: an on-demand session whose engine burns 2.5 s of CPU as it
 * stops (the parse of a recording), with a 10% threshold over a 2-s average. Burnt on the profiler's own session
 * thread, no CPU-triggered profile follows; burnt by an application thread, one does.
 *
 * <p>The container's quota is one CPU: the application's burn triggers as long as it gets a tenth of a core, on however
 * loaded a machine, while the idle test JVM stays far below it. (At half a CPU the test JVM's own JIT, counted
 * double, kept its slots above the calm level for up to a minute in the build's core test JVMs.)
 */
class OwnWorkNeverTriggersTest {

    // More than the 2-s average window: what the test itself does when it starts watching the burn is out of the
    // window by the time the session ends and the trigger may act.
    private static final long BURN_NANOS = 2_500_000_000L;
    private static final double THRESHOLD = 10;
    private static final Duration GRACE = Duration.ofHours(1);

    // The wall clock the start-up grace is measured on: it ends when the test says (the CPU is sampled in real time).
    private final FakeTime clock = new FakeTime(Instant.now());

    @TempDir
    Path root;

    /**
     * An engine whose first recording burns CPU as it stops, with {@code burn}; its later ones do not. The burn goes on
     * until {@link #seen} is counted down too, so that a test can watch it from {@link #burning} on.
     */
    private static final class BurningAtStop implements ProfilingEngine {

        final AtomicInteger starts = new AtomicInteger();
        final AtomicLong burnWallNanos = new AtomicLong();
        final CountDownLatch burning = new CountDownLatch(1);
        final CountDownLatch seen;
        private final Consumer<Runnable> burn;

        BurningAtStop(Consumer<Runnable> burn, int watchers) {
            this.burn = burn;
            this.seen = new CountDownLatch(watchers);
        }

        @Override
        public String id() {
            return JfrExecutionEngine.ID;
        }

        @Override
        public EngineRecording start(EngineSettings settings, StackSink sink) {
            boolean burns = starts.incrementAndGet() == 1;
            return new EngineRecording() {
                @Override
                public String engineId() {
                    return JfrExecutionEngine.ID;
                }

                @Override
                public long samplesSoFar() {
                    return 0;
                }

                @Override
                public synchronized EngineRecording.Result stop() {
                    if (burns) {
                        burn.accept(() -> burnWallNanos.set(spin(burning, seen)));
                    }
                    sink.accept(List.of(Frame.java("Parser.parse")), "scripted", 1);
                    return new EngineRecording.Result(JfrExecutionEngine.ID, "scripted", 1, 0, null, List.of(),
                            List.of());
                }

                @Override
                public void cancel() {
                }
            };
        }
    }

    /**
     * Spins until the test has seen it burn, then until this thread has used {@link #BURN_NANOS} more CPU (a minute at
     * most, on a machine that starves it); the wall time it took.
     */
    private static long spin(CountDownLatch burning, CountDownLatch seen) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long wallStart = System.nanoTime();
        burning.countDown();
        long x = 0;
        long start = -1;
        while ((start < 0 || threads.getCurrentThreadCpuTime() - start < BURN_NANOS)
                && System.nanoTime() - wallStart < 60_000_000_000L) {
            if (start < 0 && seen.getCount() == 0) {
                start = threads.getCurrentThreadCpuTime();
            }
            for (int i = 0; i < 100_000; i++) {
                x += i ^ x;
            }
        }
        if (x == 42) {
            System.out.print(""); // keeps the loop from being compiled away
        }
        return System.nanoTime() - wallStart;
    }

    private DefaultCpuProfiler profiler(ProfilingEngine engine) {
        // One CPU: the source is the process's own CPU time, its effective CPU count the container's quota.
        FakeCgroupV2Container.create(root, "100000 100000", "0-1");
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setSource(CpuSourceMode.PROCESS);
        o.setThreshold(THRESHOLD);
        o.setSamplingInterval(Duration.ofMillis(100));
        o.setRollingHistoryInterval(Duration.ofMillis(500));
        o.setAverageWindow(Duration.ofSeconds(2));
        o.setRollingHistorySize(Duration.ofSeconds(60));
        o.setPollingInterval(Duration.ofMillis(100));
        o.setDuration(Duration.ofSeconds(1));
        o.setStartupGrace(GRACE); // until the test JVM is calm: its own start-up is no part of this test
        o.setLookback(Duration.ZERO);
        o.getReference().setEnabled(false);
        o.getSaturation().setEnabled(false); // the application's burner is one thread at a core: not this test's
        o.setEngine(EngineChoice.JFR_EXECUTION);
        return DefaultCpuProfiler.builder(o).fsRoot(root).clock(clock).engines(List.of(engine))
                .workDirectory(root.resolve("work")).build();
    }

    /**
     * Started, and the trigger armed (the start-up grace over) once the test JVM is calm: its start-up, and what earlier
     * test classes left running, have wound down.
     */
    private void startCalm(DefaultCpuProfiler profiler) {
        profiler.start();
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            List<double[]> slots = profiler.status().history().baseline();
            return slots.size() >= 8 && slots.subList(slots.size() - 4, slots.size()).stream()
                    .allMatch(s -> s[2] < THRESHOLD / 2);
        });
        clock.advance(GRACE.plusSeconds(1));
    }

    /** The baseline's slots that ended within the last {@code seconds}: [from, to, percent], relative to now. */
    private static List<double[]> slotsWithin(DefaultCpuProfiler profiler, double seconds) {
        return profiler.status().history().baseline().stream().filter(s -> s[1] > -seconds).toList();
    }

    private static String figures(String label, BurningAtStop engine, DefaultCpuProfiler profiler, long sinceNanos) {
        double seconds = (System.nanoTime() - sinceNanos) / 1e9;
        CpuProfilerStatus status = profiler.status();
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
                "%s: burn %.1f s wall for %.1f s CPU; over the last %.1f s the chart's measured samples peaked at"
                        + " %.1f%%; the baseline's slots (application CPU, %% of %.1f CPUs):", label,
                engine.burnWallNanos.get() / 1e9, BURN_NANOS / 1e9, seconds,
                status.history().samples().stream().filter(s -> s[0] > -seconds).mapToDouble(s -> s[1]).max()
                        .orElse(Double.NaN), status.cpu().effectiveCpuCount()));
        for (double[] s : slotsWithin(profiler, seconds)) {
            out.append(String.format(Locale.ROOT, " %.1f", s[2]));
        }
        out.append("; profiles ").append(profiler.profiles().stream().map(Profile::trigger).toList());
        return out.toString();
    }

    @Test
    void theProfilersOwnSessionThreadBurningCpuAsItParsesStartsNoCpuProfile() throws InterruptedException {
        BurningAtStop engine = new BurningAtStop(Runnable::run, 1); // on the session thread itself
        try (DefaultCpuProfiler profiler = profiler(engine)) {
            startCalm(profiler);
            assertThat(engine.starts).as("nothing recorded before the test's session").hasValue(0);
            long launched = System.nanoTime();
            profiler.startOnDemand(Duration.ofSeconds(1));
            // While the session thread burns, the status shows the process's CPU as measured. Watched on the sampler's
            // figure the status reads (a status every 100 ms would itself be application CPU), then on the status.
            assertThat(engine.burning.await(60, TimeUnit.SECONDS)).isTrue();
            long burnSamples = profiler.sampler().samples();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> profiler.sampler().samples() > burnSamples + 1
                            && profiler.sampler().latestPercent() > THRESHOLD);
            CpuProfilerStatus.Cpu burning = profiler.status().cpu();
            engine.seen.countDown();
            System.out.printf(Locale.ROOT, "while the session thread burns: latest %.1f%%, average %.1f%%%n",
                    burning.latestPercent(), burning.averagePercent());
            assertThat(burning.latestPercent()).isGreaterThan(THRESHOLD);
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> profiler.store().size() == 1);
            // 6 s of ticks more (past the average window, the JIT's settle and a margin): a CPU profile would have
            // started by then. Counted cheaply: the test's own polling is application CPU too.
            long samplesAtStore = profiler.sampler().samples();
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> profiler.sampler().samples() >= samplesAtStore + 60);
            int starts = engine.starts.get();
            List<SessionTrigger> recorded = profiler.profiles().stream().map(Profile::trigger).toList();
            boolean active = profiler.activeSession().isPresent();
            System.out.println(figures("own session thread", engine, profiler, launched));

            assertThat(starts).as("the on-demand session alone").isEqualTo(1);
            assertThat(recorded).containsExactly(SessionTrigger.MANUAL);
            assertThat(active).isFalse();
            // The status's chart shows the burn as the process's CPU all the same.
            assertThat(profiler.status().history().samples().stream()
                    .filter(s -> s[0] > -(System.nanoTime() - launched) / 1e9).mapToDouble(s -> s[1]).max()
                    .orElse(0)).isGreaterThan(THRESHOLD);
        }
    }

    @Test
    void anApplicationThreadBurningTheSameCpuStartsACpuProfile() {
        BurningAtStop engine = new BurningAtStop(spin -> {
            // Not a thread of the profiler's: the session waits for the application's work to end.
            Thread application = new Thread(spin, "application-burner");
            application.start();
            try {
                application.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, 0);
        try (DefaultCpuProfiler profiler = profiler(engine)) {
            startCalm(profiler);
            assertThat(engine.starts).as("nothing recorded before the test's session").hasValue(0);
            long launched = System.nanoTime();
            profiler.startOnDemand(Duration.ofSeconds(1));
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .until(() -> engine.starts.get() >= 2);
            System.out.println(figures("application thread", engine, profiler, launched));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> profiler.profiles().stream().anyMatch(p -> p.trigger() == SessionTrigger.CPU));
        }
    }
}
