package dev.cpuprofiler.internal.lookback;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JfrEffectivePeriodTest {

    @Test
    void readsThePeriodsJfrWritesInRecordingSettings() {
        // As JFR reports them: "10 ms" from a .jfc file, "20000000 ns" from EventSettings.withPeriod(Duration).
        assertThat(JfrEffectivePeriod.parse("10 ms")).contains(Duration.ofMillis(10));
        assertThat(JfrEffectivePeriod.parse("20000000 ns")).contains(Duration.ofMillis(20));
        assertThat(JfrEffectivePeriod.parse("20ms")).contains(Duration.ofMillis(20));
        assertThat(JfrEffectivePeriod.parse("1 s")).contains(Duration.ofSeconds(1));
        assertThat(JfrEffectivePeriod.parse("everyChunk")).isEmpty();
        assertThat(JfrEffectivePeriod.parse("0 ms")).isEmpty();
    }

    @Test
    void onlyAnEnabledEventImposesItsPeriod() {
        String event = "jdk.ExecutionSample";

        assertThat(JfrEffectivePeriod.periodIn(Map.of(event + "#enabled", "true", event + "#period", "10 ms"), event))
                .contains(Duration.ofMillis(10));
        assertThat(JfrEffectivePeriod.periodIn(Map.of(event + "#enabled", "false", event + "#period", "10 ms"),
                event)).isEmpty();
        assertThat(JfrEffectivePeriod.periodIn(Map.of("jdk.NativeMethodSample#enabled", "true"), event)).isEmpty();
    }
}
