package dev.cpuprofiler.internal.lookback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SampleWeigherTest {

    @Test
    void twentyMillisecondSamplesWeighTwoTenMillisecondUnits() {
        SampleWeigher weigher = new SampleWeigher(Duration.ofMillis(20), Duration.ofMillis(10));

        assertThat(weights(weigher, 5)).containsExactly(2L, 2L, 2L, 2L, 2L);
    }

    @Test
    void aRatioThatIsNotWholeCarriesTheRemainderSoTotalsStayExact() {
        SampleWeigher weigher = new SampleWeigher(Duration.ofMillis(15), Duration.ofMillis(10));

        List<Long> w = weights(weigher, 1000);

        assertThat(w.subList(0, 4)).containsExactly(1L, 2L, 1L, 2L);
        assertThat(w.stream().mapToLong(Long::longValue).sum()).isEqualTo(1500);
    }

    @Test
    void samplesFinerThanTheUnitAddUpToWholeUnits() {
        SampleWeigher weigher = new SampleWeigher(Duration.ofMillis(10), Duration.ofMillis(20));

        assertThat(weights(weigher, 6)).containsExactly(0L, 1L, 0L, 1L, 0L, 1L);
    }

    @Test
    void aNewPeriodAppliesToTheNextSamples() {
        SampleWeigher weigher = new SampleWeigher(Duration.ofMillis(20), Duration.ofMillis(10));
        weigher.next();
        weigher.period(Duration.ofMillis(10));

        assertThat(weights(weigher, 3)).containsExactly(1L, 1L, 1L);
        assertThat(weigher.period()).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void aSampleThatSaysItsPeriodWeighsThatPeriodAndSharesTheCarry() {
        SampleWeigher weigher = new SampleWeigher(Duration.ofMillis(20), Duration.ofMillis(10));

        // JFR CPU-time samples taken at 15 ms (1, 2, 1, 2 ...), then one at the weigher's own 20 ms.
        List<Long> w = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            w.add(weigher.next(Duration.ofMillis(15)));
        }
        w.add(weigher.next());

        assertThat(w).containsExactly(1L, 2L, 1L, 2L, 2L);
    }

    private static List<Long> weights(SampleWeigher weigher, int n) {
        List<Long> w = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            w.add(weigher.next());
        }
        return w;
    }
}
