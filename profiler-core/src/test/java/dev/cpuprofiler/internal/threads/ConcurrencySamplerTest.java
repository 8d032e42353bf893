package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.ConcurrencyReport;
import dev.cpuprofiler.ThreadCpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cpuprofiler.internal.cpu.EffectiveCpuCount;
import dev.cpuprofiler.internal.cpu.Ticker;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The two ratios on real threads, on 2 effective CPUs (passed explicitly), against what the workloads are built to
 * do (±7 points). Workload bursts are amounts of CPU time (each thread checks its own CPU clock) and are logged, so
 * each scenario knows its truth: the CPU the workers used, and the time at least one burst was under way.
 *
 * <p>This machine is shared: another process may take a core while a scenario runs, and then a "100% busy" thread
 * really is busy less of the time, and bursts stretch. So every scenario checks the estimate against the measured
 * truth, which holds however loaded the machine is; only a window where the bursts got at least 95% of a core while
 * under way is held to the nominal figures too. One window, not a second after a busy one: beside the build's other
 * test JVM the two-thread scenarios read 0.87-0.94 and 0.49-0.50 of a core in all three windows of a clean-clone CI
 * run, so a window measured again never turned quiet there, and cost 3.3 s each.
 */
@Timeout(180)
class ConcurrencySamplerTest {

    private static final EffectiveCpuCount TWO_CPUS = new EffectiveCpuCount(2, "test");
    private static final long MS = 1_000_000L;
    private static final long SAMPLE_MILLIS = 3_000;
    private static final double TOLERANCE = 0.07;

    private final ThreadCpuReader reader = new ManagementThreadCpuReader();
    private final ThreadCpuTracker tracker = new ThreadCpuTracker(reader, new CpuProfilerOptions());
    private final ConcurrencySampler sampler = new ConcurrencySampler(reader, tracker, TWO_CPUS, Ticker.system(),
            r -> {
                Thread t = new Thread(r, "cpuprofiler-concurrency");
                t.setDaemon(true);
                return t;
            });
    private Workloads work;

    @BeforeEach
    void parkedPopulation() {
        work = new Workloads();
        for (int i = 0; i < 100; i++) {
            work.parked("parked-" + i);
        }
    }

    @AfterEach
    void stop() throws InterruptedException {
        sampler.stop();
        work.close();
    }

    /** What was sampled, and the truth over the same span. */
    private record Measured(ConcurrencyReport report, double seconds, double workersCpuSeconds,
            double maxWorkerCpuSeconds, Workloads.BurstTruth bursts) {

        /** Whether the bursts ran undisturbed (the truth is then sharp and the nominal figures apply). */
        boolean quiet() {
            return bursts.cpuPerWall() >= 0.95;
        }

        double utilization() {
            return workersCpuSeconds / (seconds * TWO_CPUS.count());
        }

        /**
         * The most the bottleneck can be: time with a burst under way / T (which counts a burst's thread as running
         * even while other load took its core), and never more than all the workers' CPU time / T.
         */
        double bottleneck() {
            return Math.min(bursts.unionSeconds(), workersCpuSeconds) / seconds;
        }

        /** The least the bottleneck can be: the busiest worker's CPU time / T. */
        double bottleneckAtLeast() {
            return maxWorkerCpuSeconds / seconds;
        }

        /** Checks the estimate against the truth; on a quiet window, also against the nominal figures. */
        void check(double nominalUtilization, double nominalBottleneck) {
            ConcurrencyReport r = report;
            assertThat(r.utilization()).as("utilization vs the workers' CPU").isCloseTo(utilization(), within(0.03));
            assertThat(r.bottleneck()).as("bottleneck within what the truth allows")
                    .isBetween(bottleneckAtLeast() - TOLERANCE, bottleneck() + TOLERANCE);
            if (quiet()) {
                assertThat(r.bottleneck()).as("bottleneck vs the bursts").isCloseTo(bottleneck(), within(TOLERANCE));
                assertThat(r.utilization()).as("utilization").isCloseTo(nominalUtilization, within(TOLERANCE));
                assertThat(r.bottleneck()).as("bottleneck").isCloseTo(nominalBottleneck, within(TOLERANCE));
            }
        }
    }

    /** Samples a profile of 3 s while the workers run. */
    private Measured measure(List<Thread> workers) throws InterruptedException {
        // The 1 s tracker, as in the app: two ticks tell which threads are active when the profile starts.
        tracker.onSample(System.nanoTime(), 0, Double.NaN);
        Thread.sleep(300);
        tracker.onSample(System.nanoTime(), 0, Double.NaN);

        long[] before = workers.stream().mapToLong(Workloads::cpu).toArray();
        long t0 = System.nanoTime();
        sampler.start();
        Thread.sleep(SAMPLE_MILLIS);
        Optional<ConcurrencyReport> report = sampler.stop();
        long t1 = System.nanoTime();
        double total = 0;
        double max = 0;
        for (int i = 0; i < workers.size(); i++) {
            double used = (Workloads.cpu(workers.get(i)) - before[i]) / 1e9;
            total += used;
            max = Math.max(max, used);
        }
        assertThat(report).isPresent();
        Measured m = new Measured(report.get(), (t1 - t0) / 1e9, total, max, work.bursts(t0, t1));
        System.out.printf("%s%n  truth: utilization %.3f, bottleneck %.3f (at least %.3f), CPU/wall in bursts %.2f%s%n",
                m.report(), m.utilization(), m.bottleneck(), m.bottleneckAtLeast(), m.bursts().cpuPerWall(),
                m.quiet() ? "" : " (the machine is busy)");
        return m;
    }

    @Test
    void oneThreadFullyBusyUsesHalfOfTwoCpusButIsABottleneckAllTheTime() throws InterruptedException {
        Measured m = measure(List.of(work.busy("busy")));
        m.check(0.5, 1.0);
        assertThat(m.report().threads().get(0).name()).isEqualTo("busy");
        if (m.quiet()) {
            assertThat(m.report().threads().get(0).label()).isEqualTo(ThreadCpu.Label.CPU_BOUND);
        }
    }

    @Test
    void twoThreadsTakingTurnsThroughALockAreABottleneckAllTheTime() throws InterruptedException {
        Measured m = measure(work.takingTurns("turns", 20 * MS));
        m.check(0.5, 1.0);
    }

    @Test
    void twoThreadsBusyTogetherAQuarterOfTheTime() throws InterruptedException {
        Measured m = measure(work.together("burst", 2, 25 * MS, 100 * MS));
        m.check(0.25, 0.25);
    }

    @Test
    void nothingRunningOnlyParkedThreads() throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            work.parked("more-parked-" + i);
        }
        Measured m = measure(List.of());
        m.check(0, 0);
        assertThat(m.report().threadsSeen()).isGreaterThanOrEqualTo(300);
    }

    @Test
    void fineGrainedHandOffsAreAmbiguousButTheBoundsHoldTheTruth() throws InterruptedException {
        // Turns of 1 ms: both threads run about half of every 10 ms tick, which deltas cannot tell from running
        // together half the time. The estimate sits in between; the bounds still hold the true value.
        Measured m = measure(work.takingTurns("quick-turns", MS));
        ConcurrencyReport r = m.report();

        // Never together: the true time with one running is the sum of their CPU times.
        double truth = m.workersCpuSeconds() / m.seconds();
        assertThat(r.utilization()).isCloseTo(m.utilization(), within(0.03));
        assertThat(truth).isBetween(r.bottleneckLow() - 0.03, r.bottleneckHigh() + 0.03);
        assertThat(r.bottleneck()).isBetween(r.bottleneckLow(), r.bottleneckHigh());
    }

    @Test
    void stopWithoutStartGivesNothingAndASamplerCanBeStartedAgain() throws InterruptedException {
        assertThat(sampler.stop()).isEmpty();
        sampler.start();
        assertThat(sampler.isRunning()).isTrue();
        Thread.sleep(100);
        assertThat(sampler.stop()).isPresent();
        assertThat(sampler.isRunning()).isFalse();
        sampler.start();
        Thread.sleep(100);
        assertThat(sampler.stop()).hasValueSatisfying(r -> assertThat(r.duration().toMillis()).isBetween(50L, 5_000L));
    }
}
