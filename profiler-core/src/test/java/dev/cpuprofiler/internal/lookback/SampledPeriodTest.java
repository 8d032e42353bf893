package dev.cpuprofiler.internal.lookback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SampledPeriodTest {

    private static final Duration MS_10 = Duration.ofMillis(10);
    private static final Duration MS_20 = Duration.ofMillis(20);
    private static final Duration MS_30 = Duration.ofMillis(30);

    @Test
    void aLateSignalsSampleDoesNotChangeThePeriodInForce() {
        JfrSampleStream.SampledPeriod period = new JfrSampleStream.SampledPeriod();
        assertThat(period.inForce()).isNull();

        // A CI run on JDK 25 next to a 10 ms recording: the last sample said 30 ms (two overruns), and the look-back
        // took it for the period and logged that another recording sampled every 30 ms.
        for (int i = 0; i < 100; i++) {
            period.add(i % 7 == 3 ? MS_30 : i % 5 == 1 ? MS_20 : MS_10);
        }
        period.add(MS_30);

        assertThat(period.inForce()).isEqualTo(MS_10);
    }

    @Test
    void aFinerPeriodCountsAtOnceACoarserOneAfterAWholeBatch() {
        JfrSampleStream.SampledPeriod period = new JfrSampleStream.SampledPeriod();
        for (int i = 0; i < JfrSampleStream.SampledPeriod.BATCH; i++) {
            period.add(MS_20);
        }
        period.add(MS_10); // a user's 10 ms recording started
        assertThat(period.inForce()).isEqualTo(MS_10);

        // It ended: our 20 ms again, said by every sample of the next batches.
        for (int i = 0; i < JfrSampleStream.SampledPeriod.BATCH - 1; i++) {
            period.add(MS_20);
            assertThat(period.inForce()).as("within the batch that still saw 10 ms").isEqualTo(MS_10);
        }
        for (int i = 0; i < JfrSampleStream.SampledPeriod.BATCH; i++) {
            period.add(MS_20);
        }
        assertThat(period.inForce()).isEqualTo(MS_20);
    }
}
