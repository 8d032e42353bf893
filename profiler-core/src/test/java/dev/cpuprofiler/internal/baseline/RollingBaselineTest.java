package dev.cpuprofiler.internal.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.internal.cpu.EffectiveCpuCount;
import dev.cpuprofiler.internal.testing.LogCapture;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RollingBaselineTest {

    private static final long SEC = 1_000_000_000L;

    private final EffectiveCpuCount twoCpus = new EffectiveCpuCount(2, "test");

    /** Feeds one sample per second; {@code load} is the percent of 2 CPUs used in each second. */
    private static final class Feed {
        final RollingBaseline baseline;
        long t;
        long cpu;

        Feed(RollingBaseline baseline) {
            this.baseline = baseline;
            baseline.onSample(0, 0, Double.NaN);
        }

        void seconds(int n, double loadPercent) {
            for (int i = 0; i < n; i++) {
                t += SEC;
                cpu += (long) (loadPercent / 100 * 2 * SEC);
                baseline.onSample(t, cpu, loadPercent);
            }
        }
    }

    private RollingBaseline defaults() {
        return new RollingBaseline(Duration.ofMinutes(10), Duration.ofSeconds(30), Duration.ofSeconds(30),
                Duration.ofSeconds(1), twoCpus);
    }

    @Test
    void theHighestAverageOfTheKeptHistorySaysHowCloseTheCpuCame() {
        // 10-min history, 30-s slots, a 60-s average window (two slots).
        RollingBaseline baseline = new RollingBaseline(Duration.ofMinutes(10), Duration.ofSeconds(30),
                Duration.ofSeconds(60), Duration.ofSeconds(1), twoCpus);
        Feed feed = new Feed(baseline);
        assertThat(baseline.highestAverage()).isEmpty();
        feed.seconds(30, 20);
        assertThat(baseline.highestAverage()).hasValue(20.0); // fewer slots than the window: the one average
        feed.seconds(30, 60);
        feed.seconds(30, 50);
        feed.seconds(60, 10);
        // Windows of two slots: (20,60)=40, (60,50)=55, (50,10)=30, (10,10)=10; now 10.
        assertThat(baseline.highestAverage().getAsDouble()).isCloseTo(55.0, offset(1e-6));
        assertThat(baseline.average().getAsDouble()).isCloseTo(10.0, offset(1e-6));
        assertThat(baseline.keptHistory()).isEqualTo(Duration.ofSeconds(150));
        // Ten minutes later the 55% has left the kept history.
        feed.seconds(600, 10);
        assertThat(baseline.highestAverage().getAsDouble()).isCloseTo(10.0, offset(1e-6));
        assertThat(baseline.keptHistory()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    void reportsNothingBeforeTheFirstIntervalCompletes() {
        Feed feed = new Feed(defaults());
        feed.seconds(29, 100);
        assertThat(feed.baseline.average()).isEmpty();
        feed.seconds(1, 100);
        assertThat(feed.baseline.average()).hasValue(100.0);
    }

    @Test
    void eachSlotIsTheTrueAverageOverItsIntervalNotOnePointSample() {
        Feed feed = new Feed(defaults());
        feed.seconds(10, 90);
        feed.seconds(19, 0);
        feed.seconds(1, 30); // a point sample at the slot's end would say 30%
        assertThat(feed.baseline.history()).hasSize(1);
        assertThat(feed.baseline.history().get(0).percent()).isCloseTo((10 * 90 + 30) / 30.0, offset(1e-6));
        assertThat(feed.baseline.average().getAsDouble()).isCloseTo(31.0, offset(1e-6));
    }

    @Test
    void averageCoversTheLastAverageWindowOfSlots() {
        RollingBaseline baseline = new RollingBaseline(Duration.ofMinutes(10), Duration.ofSeconds(30),
                Duration.ofSeconds(90), Duration.ofSeconds(1), twoCpus);
        Feed feed = new Feed(baseline);
        feed.seconds(30, 100);
        feed.seconds(30, 10);
        feed.seconds(30, 20);
        feed.seconds(30, 60);
        assertThat(baseline.windowSlots()).isEqualTo(3);
        assertThat(baseline.average().getAsDouble()).isCloseTo(30.0, offset(1e-6));
    }

    @Test
    void circularBufferKeepsHistorySizeOverIntervalSlots() {
        Feed feed = new Feed(defaults());
        for (int i = 0; i < 25; i++) {
            feed.seconds(30, i);
        }
        assertThat(feed.baseline.capacity()).isEqualTo(20);
        assertThat(feed.baseline.completedSlots()).isEqualTo(25);
        assertThat(feed.baseline.history()).hasSize(20);
        assertThat(feed.baseline.history().get(0).percent()).isCloseTo(5.0, offset(1e-6));
        assertThat(feed.baseline.history().get(19).percent()).isCloseTo(24.0, offset(1e-6));
    }

    @Test
    void schedulingJitterDoesNotStretchSlots() {
        RollingBaseline baseline = defaults();
        baseline.onSample(0, 0, Double.NaN);
        long t = 0;
        for (int i = 1; i <= 60; i++) {
            t = i * SEC - 2_000_000; // every tick 2 ms early
            baseline.onSample(t, (long) (t * 0.5 * 2), 50);
        }
        assertThat(baseline.completedSlots()).isEqualTo(2);
        assertThat(baseline.average().getAsDouble()).isCloseTo(50.0, offset(1e-6));
    }

    @Test
    void irregularGapsStillGiveTheTrueAverage() {
        RollingBaseline baseline = defaults();
        baseline.onSample(0, 0, Double.NaN);
        baseline.onSample(7 * SEC, 7 * SEC, 50);        // 7 s at one of two CPUs
        baseline.onSample(31 * SEC, 7 * SEC, 0);        // the sampler stalled for 24 s of idle
        assertThat(baseline.history()).hasSize(1);
        assertThat(baseline.history().get(0).wallNanos()).isEqualTo(31 * SEC);
        assertThat(baseline.average().getAsDouble()).isCloseTo(7.0 / 31 / 2 * 100, offset(1e-6));
    }

    @Test
    void logsEachUpdateWithOldAndNewValues() {
        try (LogCapture logs = new LogCapture()) {
            Feed feed = new Feed(defaults());
            feed.seconds(30, 40);
            feed.seconds(30, 60);
            assertThat(logs.messages(Level.DEBUG))
                    .anyMatch(m -> m.startsWith("Baseline update: metric=cpu, old=none, new=40.0"))
                    .anyMatch(m -> m.startsWith("Baseline update: metric=cpu, old=40.0, new=60.0"));
        }
    }
}
