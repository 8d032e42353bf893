package dev.cpuprofiler.internal.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TickConcurrencyTest {

    @Test
    void independentThreadsFollowThePoissonBinomial() {
        double[] q = TickConcurrency.poissonBinomial(new double[] {0.5, 0.5}, 2);
        assertThat(q).containsExactly(new double[] {0.25, 0.5, 0.25}, within(1e-12));
    }

    @Test
    void manyLightThreadsKeepTheirMeanAndCostLittle() {
        double[] p = new double[400];
        Arrays.fill(p, 0.002);
        double[] q = TickConcurrency.poissonBinomial(p, p.length);
        double sum = 0;
        double mean = 0;
        for (int m = 0; m < q.length; m++) {
            sum += q[m];
            mean += m * q[m];
        }
        assertThat(sum).isCloseTo(1, within(1e-9));
        assertThat(mean).isCloseTo(0.8, within(1e-9));
        assertThat(q.length).isLessThan(20); // the negligible tail is cut
    }

    @Test
    void anchoredIntervalsAndUnanchoredThreadsAddUp() {
        // [0, 6) and [4, 10) overlap on [4, 6); one unanchored thread at 50%.
        double[] h = TickConcurrency.add(new double[1], 10, new double[] {0, 4}, new double[] {6, 10}, 2,
                new double[] {0.5}, 1);
        assertThat(h[0]).isCloseTo(0, within(1e-9));
        assertThat(h[1]).isCloseTo(4, within(1e-9)); // 8 with one anchored, half of it without the other
        assertThat(h[2]).isCloseTo(4 + 1, within(1e-9));
        assertThat(h[3]).isCloseTo(1, within(1e-9));
    }

    @Test
    void foldingAtTheCpuCountMovesTheSurplusIntoIdleTimeFirst() {
        // 10 units: 4 idle, 2 with one thread, 4 with three threads (on 2 CPUs): 4 units of work do not fit.
        double[] h = {4, 2, 0, 4};
        TickConcurrency.fold(h, 2);
        // The three-thread time runs as two (4 units at k = 2); the 4 units of work left over fill the idle time.
        assertThat(h).containsExactly(new double[] {0, 6, 4, 0}, within(1e-9));
        assertThat(h[1] + 2 * h[2]).isCloseTo(1 * 2 + 3 * 4, within(1e-9)); // Σ k·t(k) kept
    }

    @Test
    void backToBackIntervalsDoNotOverlap() {
        double[] h = TickConcurrency.add(new double[1], 10, new double[] {0, 5}, new double[] {5, 10}, 2,
                new double[0], 0);
        assertThat(h[1]).isCloseTo(10, within(1e-9));
        assertThat(h.length < 3 || h[2] == 0).isTrue();
    }
}
