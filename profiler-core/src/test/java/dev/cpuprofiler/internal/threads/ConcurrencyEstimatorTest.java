package dev.cpuprofiler.internal.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The estimator on scripted per-tick deltas (10 ms ticks), where the true overlap is known. */
class ConcurrencyEstimatorTest {

    private static final long TICK = 10_000_000L;

    private final ConcurrencyEstimator estimator = new ConcurrencyEstimator(4, 4);

    /** busy[t][i] = ms thread i was busy in tick t. */
    private ConcurrencyEstimator.Totals feed(double[][] busy) {
        for (double[] tick : busy) {
            estimator.tick(TICK);
            for (int i = 0; i < tick.length; i++) {
                estimator.exact(i + 1, (long) (tick[i] * 1_000_000));
            }
        }
        return estimator.finishAll();
    }

    private static double atLeastOne(ConcurrencyEstimator.Totals t) {
        return (t.totalNanos() - t.histogram()[0]) / t.totalNanos();
    }

    private static double running(ConcurrencyEstimator.Totals t, int k) {
        return k < t.histogram().length ? t.histogram()[k] / t.totalNanos() : 0;
    }

    private static double meanRunning(ConcurrencyEstimator.Totals t) {
        double kt = 0;
        for (int k = 0; k < t.histogram().length; k++) {
            kt += k * t.histogram()[k];
        }
        return kt / t.totalNanos();
    }

    @Test
    void oneThreadAlwaysBusy() {
        ConcurrencyEstimator.Totals t = feed(repeat(new double[] {10}, 100));
        assertThat(atLeastOne(t)).isCloseTo(1, within(1e-9));
        assertThat(running(t, 1)).isCloseTo(1, within(1e-9));
        assertThat(t.lowerNanos() / t.totalNanos()).isCloseTo(1, within(1e-9));
    }

    @Test
    void twoThreadsStartingAndStoppingTogetherMidTickAreSeenTogether() {
        // Every 100 ms both run 25 ms, from 3 ms into a tick to 8 ms into the third: 7, 10, 8 ms.
        double[][] period = new double[10][];
        for (int i = 0; i < 10; i++) {
            period[i] = new double[] {0, 0};
        }
        period[0] = new double[] {7, 7};
        period[1] = new double[] {10, 10};
        period[2] = new double[] {8, 8};
        ConcurrencyEstimator.Totals t = feed(cycle(period, 20));
        assertThat(atLeastOne(t)).isCloseTo(0.25, within(1e-6));
        assertThat(running(t, 2)).isCloseTo(0.25, within(1e-6));
        assertThat(meanRunning(t)).isCloseTo(0.5, within(1e-6));
    }

    @Test
    void twoThreadsTakingTurnsWithHandOffsMidTickAreNeverSeenTogether() {
        // A runs 25 ms, then B 25 ms: hand-offs 5 ms into a tick.
        double[][] period = {{10, 0}, {10, 0}, {5, 5}, {0, 10}, {0, 10}};
        ConcurrencyEstimator.Totals t = feed(cycle(period, 40));
        assertThat(atLeastOne(t)).isCloseTo(1, within(1e-6));
        assertThat(running(t, 2)).isCloseTo(0, within(1e-6));
    }

    @Test
    void steadyPartialThreadsAreAmbiguousAndTheBoundsSaySo() {
        // Two threads at 50% in every tick: alternating (100% bottleneck) or together (50%) look the same.
        ConcurrencyEstimator.Totals t = feed(repeat(new double[] {5, 5}, 100));
        assertThat(atLeastOne(t)).isCloseTo(0.75, within(1e-6)); // independent: 1 - 0.5 * 0.5
        assertThat(t.lowerNanos() / t.totalNanos()).isCloseTo(0.5, within(1e-6));
        assertThat(t.upperNanos() / t.totalNanos()).isCloseTo(1, within(1e-6));
        assertThat(meanRunning(t)).isCloseTo(1, within(1e-6)); // utilization does not depend on the model
    }

    @Test
    void aDeltaSpanningSeveralTicksIsSpreadOverThemAndKeepsItsCpuTime() {
        for (int i = 0; i < 4; i++) {
            estimator.tick(TICK);
            estimator.exact(1, TICK); // one thread always busy
        }
        estimator.spread(4, 8_000_000); // another used 8 ms somewhere in those 4 ticks
        ConcurrencyEstimator.Totals t = estimator.finishAll();
        assertThat(meanRunning(t)).isCloseTo(1.2, within(1e-6));
        assertThat(atLeastOne(t)).isCloseTo(1, within(1e-6));
        assertThat(t.upperNanos()).isEqualTo(t.totalNanos());
    }

    @Test
    void noMoreThreadsRunAtOnceThanThereAreCpus() {
        // Four threads sharing two CPUs, each getting half of every tick: two always run, never three.
        ConcurrencyEstimator twoCpus = new ConcurrencyEstimator(4, 2);
        for (int t = 0; t < 100; t++) {
            twoCpus.tick(TICK);
            for (int i = 1; i <= 4; i++) {
                twoCpus.exact(i, TICK / 2);
            }
        }
        ConcurrencyEstimator.Totals t = twoCpus.finishAll();
        assertThat(running(t, 2)).isCloseTo(1, within(1e-9));
        assertThat(t.histogram().length <= 3 || t.histogram()[3] == 0).isTrue();
        assertThat(meanRunning(t)).isCloseTo(2, within(1e-9));
        assertThat(t.lowerNanos() / t.totalNanos()).isCloseTo(1, within(1e-9)); // Σ b / C fills the tick
    }

    @Test
    void manyLightThreadsSpreadOverTicksArePooledAndKeepTheirCpuTime() {
        for (int t = 0; t < 4; t++) {
            estimator.tick(TICK);
        }
        for (int i = 0; i < 100; i++) {
            estimator.spread(4, 200_000); // 0.2 ms each over 40 ms: 0.5% of each tick
        }
        ConcurrencyEstimator.Totals t = estimator.finishAll();
        assertThat(meanRunning(t)).isCloseTo(0.5, within(1e-9));
        // Poisson(0.5) threads running at once (give or take the 0.02% beyond the 4 CPUs, folded back in)
        assertThat(atLeastOne(t)).isCloseTo(1 - Math.exp(-0.5), within(1e-3));
    }

    @Test
    void nothingRunning() {
        ConcurrencyEstimator.Totals t = feed(repeat(new double[] {0, 0, 0}, 50));
        assertThat(atLeastOne(t)).isZero();
        assertThat(t.upperNanos()).isZero();
    }

    @Test
    void ticksOfUnequalLengthWeighByTheirLength() {
        estimator.tick(TICK);
        estimator.exact(1, TICK);
        estimator.tick(3 * TICK); // a late tick: the thread idled through it
        ConcurrencyEstimator.Totals t = estimator.finishAll();
        assertThat(t.totalNanos()).isEqualTo(4.0 * TICK);
        assertThat(atLeastOne(t)).isCloseTo(0.25, within(1e-9));
    }

    private static double[][] repeat(double[] tick, int n) {
        double[][] r = new double[n][];
        for (int i = 0; i < n; i++) {
            r[i] = tick;
        }
        return r;
    }

    private static double[][] cycle(double[][] period, int times) {
        double[][] r = new double[period.length * times][];
        for (int i = 0; i < r.length; i++) {
            r[i] = period[i % period.length];
        }
        return r;
    }
}
