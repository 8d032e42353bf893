package dev.cpuprofiler.internal.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.threads.SaturationReading;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The decision alone: numbers and holds in, a trigger or none out; no clock, no thread, no session. */
class TriggerDecisionTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final TriggerSettings THRESHOLD_80 = new TriggerSettings(true, 80, Duration.ofMinutes(10),
            Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ZERO);
    private static final SaturationSettings SATURATION_90 = new SaturationSettings(true, 90, Duration.ofSeconds(60));
    private static final Optional<SaturationReading> NO_THREAD = Optional.empty();
    private static final Optional<SaturationReading> PINNED = Optional.of(new SaturationReading(42, "event-loop-1",
            97.0, Duration.ofSeconds(40)));
    private static final Optional<SaturationReading> HOT_NOT_PINNED = Optional.of(new SaturationReading(42,
            "event-loop-1", 60.0, null));

    private final TriggerDecision decision = new TriggerDecision(THRESHOLD_80, SATURATION_90);
    private final Holds holds = new Holds();

    private Optional<SessionTrigger> decide(double average, Optional<SaturationReading> hottest) {
        return decision.decide(OptionalDouble.of(average), hottest, holds, NOW);
    }

    @Test
    void theCpuTriggersStrictlyAboveTheThreshold() {
        assertThat(decide(80.1, NO_THREAD)).hasValue(SessionTrigger.CPU);
        assertThat(decide(80, NO_THREAD)).as("equal to the threshold").isEmpty();
        assertThat(decide(10, NO_THREAD)).isEmpty();
        assertThat(decision.decide(OptionalDouble.empty(), NO_THREAD, holds, NOW)).as("no baseline yet").isEmpty();
    }

    @Test
    void aPinnedThreadTriggersHoweverLowTheCpuAndTheCpuKeepsPrecedence() {
        assertThat(decide(25, PINNED)).hasValue(SessionTrigger.SATURATION);
        assertThat(decision.decide(OptionalDouble.empty(), PINNED, holds, NOW)).as("before the first baseline too")
                .hasValue(SessionTrigger.SATURATION);
        assertThat(decide(25, HOT_NOT_PINNED)).as("hot, not for a whole window").isEmpty();
        assertThat(decide(85, PINNED)).hasValue(SessionTrigger.CPU);
    }

    @Test
    void withTheSaturationTriggerOffAPinnedThreadTriggersNothing() {
        TriggerDecision cpuOnly = new TriggerDecision(THRESHOLD_80, SaturationSettings.OFF);
        assertThat(cpuOnly.decide(OptionalDouble.of(25), PINNED, holds, NOW)).isEmpty();
        assertThat(cpuOnly.decide(OptionalDouble.of(85), PINNED, holds, NOW)).hasValue(SessionTrigger.CPU);
    }

    @Test
    void aDisabledTriggerDecidesNothing() {
        TriggerDecision disabled = new TriggerDecision(new TriggerSettings(false, 80, Duration.ofMinutes(10),
                Duration.ofSeconds(30), Duration.ofSeconds(30), Duration.ZERO), SATURATION_90);
        assertThat(disabled.decide(OptionalDouble.of(100), PINNED, holds, NOW)).isEmpty();
    }

    @Test
    void theStartupGraceHoldsBothTriggersUntilItEnds() {
        holds.startGrace(NOW.plusSeconds(60));

        assertThat(decide(100, PINNED)).isEmpty();
        assertThat(decision.decide(OptionalDouble.of(100), PINNED, holds, NOW.plusSeconds(59))).isEmpty();
        assertThat(decision.decide(OptionalDouble.of(100), PINNED, holds, NOW.plusSeconds(60)))
                .hasValue(SessionTrigger.CPU);
    }

    @Test
    void aCooldownHoldsBothTriggersUntilItEnds() {
        holds.startCooldown(NOW.plus(Duration.ofMinutes(10)));

        assertThat(decide(100, NO_THREAD)).isEmpty();
        assertThat(decide(25, PINNED)).isEmpty();
        assertThat(decision.decide(OptionalDouble.of(25), PINNED, holds, NOW.plus(Duration.ofMinutes(10))))
                .hasValue(SessionTrigger.SATURATION);
    }

    /** The common poll goes no further: nothing could trigger, whatever the holds say. */
    @Test
    void aCalmPollHasNothingToDecide() {
        assertThat(decision.nothingToDecide(OptionalDouble.of(50), NO_THREAD)).isTrue();
        assertThat(decision.nothingToDecide(OptionalDouble.of(80), HOT_NOT_PINNED)).isTrue();
        assertThat(decision.nothingToDecide(OptionalDouble.empty(), NO_THREAD)).isTrue();
        assertThat(decision.nothingToDecide(OptionalDouble.of(80.1), NO_THREAD)).isFalse();
        assertThat(decision.nothingToDecide(OptionalDouble.of(10), PINNED)).isFalse();
        assertThat(new TriggerDecision(THRESHOLD_80, SaturationSettings.OFF)
                .nothingToDecide(OptionalDouble.of(10), PINNED)).as("saturation off").isTrue();
    }
}
