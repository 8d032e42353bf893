package dev.cpuprofiler.internal.trigger;

import static dev.cpuprofiler.internal.trigger.TriggerDecision.Activity.NONE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.requests.LatencyRule;
import dev.cpuprofiler.internal.threads.SaturationReading;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The decision alone: numbers and holds in, a trigger or none out; no clock, no thread, no session. */
class TriggerDecisionTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private static final Optional<SaturationReading> NO_THREAD = Optional.empty();
    private static final Optional<LatencyRule.SlowEndpoint> NO_SLOW = Optional.empty();
    private static final Optional<SaturationReading> PINNED = Optional.of(new SaturationReading(42, "event-loop-1",
            97.0, Duration.ofSeconds(40)));
    private static final Optional<SaturationReading> HOT_NOT_PINNED = Optional.of(new SaturationReading(42,
            "event-loop-1", 60.0, null));

    private static final Optional<LatencyRule.SlowEndpoint> SLOW = Optional.of(new LatencyRule.SlowEndpoint(
            "GET /vault", 40, 30, 610, 200, null));

    private final TriggerDecision decision = decision(true, true, false);
    private final Holds holds = new Holds();

    /**
     * Threshold 80, cooldown 10 min, duration 30 s, no start-up grace; saturation at 90% over 60 s; references of
     * 10 s every hour (on 2 CPUs: idle below 1%).
     */
    private static TriggerDecision decision(boolean cpuTrigger, boolean saturation, boolean reference) {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setEnabled(cpuTrigger);
        options.setThreshold(80);
        options.setCooldown(Duration.ofMinutes(10));
        options.setDuration(Duration.ofSeconds(30));
        options.setStartupGrace(Duration.ZERO);
        options.getSaturation().setEnabled(saturation);
        options.getSaturation().setThreshold(90);
        options.getSaturation().setWindow(Duration.ofSeconds(60));
        options.getReference().setEnabled(reference);
        options.getReference().setDuration(Duration.ofSeconds(10));
        options.getReference().setRefresh(Duration.ofHours(1));
        return new TriggerDecision(options, true, 2);
    }

    private Optional<SessionTrigger> decide(double average, Optional<SaturationReading> hottest) {
        return decision.decide(OptionalDouble.of(average), hottest, NO_SLOW, NONE, holds, NOW);
    }

    @Test
    void theCpuTriggersStrictlyAboveTheThreshold() {
        assertThat(decide(80.1, NO_THREAD)).hasValue(SessionTrigger.CPU);
        assertThat(decide(80, NO_THREAD)).as("equal to the threshold").isEmpty();
        assertThat(decide(10, NO_THREAD)).isEmpty();
        assertThat(decision.decide(OptionalDouble.empty(), NO_THREAD, NO_SLOW, NONE, holds, NOW)).as("no baseline yet")
                .isEmpty();
    }

    @Test
    void aPinnedThreadTriggersHoweverLowTheCpuAndTheCpuKeepsPrecedence() {
        assertThat(decide(25, PINNED)).hasValue(SessionTrigger.SATURATION);
        assertThat(decision.decide(OptionalDouble.empty(), PINNED, NO_SLOW, NONE, holds, NOW))
                .as("before the first baseline too").hasValue(SessionTrigger.SATURATION);
        assertThat(decide(25, HOT_NOT_PINNED)).as("hot, not for a whole window").isEmpty();
        assertThat(decide(85, PINNED)).hasValue(SessionTrigger.CPU);
    }

    @Test
    void withTheSaturationTriggerOffAPinnedThreadTriggersNothing() {
        TriggerDecision cpuOnly = decision(true, false, false);
        assertThat(cpuOnly.decide(OptionalDouble.of(25), PINNED, NO_SLOW, NONE, holds, NOW)).isEmpty();
        assertThat(cpuOnly.decide(OptionalDouble.of(85), PINNED, NO_SLOW, NONE, holds, NOW)).hasValue(SessionTrigger.CPU);
    }

    @Test
    void aDisabledTriggerDecidesNothing() {
        TriggerDecision disabled = decision(false, true, false);
        assertThat(disabled.decide(OptionalDouble.of(100), PINNED, NO_SLOW, NONE, holds, NOW)).isEmpty();
    }

    @Test
    void theStartupGraceHoldsBothTriggersUntilItEnds() {
        holds.startGrace(NOW.plusSeconds(60));

        assertThat(decide(100, PINNED)).isEmpty();
        assertThat(decision.decide(OptionalDouble.of(100), PINNED, NO_SLOW, NONE, holds, NOW.plusSeconds(59))).isEmpty();
        assertThat(decision.decide(OptionalDouble.of(100), PINNED, NO_SLOW, NONE, holds, NOW.plusSeconds(60)))
                .hasValue(SessionTrigger.CPU);
    }

    @Test
    void aSlowEndpointStartsALatencyProfileWithItsOwnCooldownAndTheCpuKeepsPrecedence() {
        assertThat(decision.decide(OptionalDouble.of(10), NO_THREAD, SLOW, NONE, holds, NOW))
                .hasValue(SessionTrigger.LATENCY);
        assertThat(decision.decide(OptionalDouble.of(90), NO_THREAD, SLOW, NONE, holds, NOW))
                .hasValue(SessionTrigger.CPU);
        assertThat(decision.nothingToDecide(OptionalDouble.of(10), NO_THREAD, SLOW)).isFalse();

        holds.startCooldown(NOW.plus(Duration.ofMinutes(10)));
        assertThat(decision.decide(OptionalDouble.of(10), NO_THREAD, SLOW, NONE, holds, NOW))
                .as("the CPU's cooldown holds the CPU only").hasValue(SessionTrigger.LATENCY);
        holds.startLatencyCooldown(NOW.plus(Duration.ofHours(1)));
        assertThat(decision.decide(OptionalDouble.of(10), NO_THREAD, SLOW, NONE, holds, NOW.plusSeconds(3599)))
                .isEmpty();
        assertThat(decision.decide(OptionalDouble.of(10), NO_THREAD, SLOW, NONE, holds, NOW.plusSeconds(3600)))
                .hasValue(SessionTrigger.LATENCY);
        holds.startGrace(NOW.plusSeconds(3700));
        assertThat(decision.decide(OptionalDouble.of(10), NO_THREAD, SLOW, NONE, holds, NOW.plusSeconds(3600)))
                .as("in the start-up grace").isEmpty();
    }

    @Test
    void slowRequestsWhileTheCpuIsOverItsThresholdAreTheCpuIncidentsEvenInItsCooldown() {
        holds.startCooldown(NOW.plus(Duration.ofMinutes(10)));
        assertThat(decision.decide(OptionalDouble.of(90), NO_THREAD, SLOW, NONE, holds, NOW))
                .as("the CPU profile of this incident was just recorded: no second one by latency").isEmpty();
        assertThat(decision.decide(OptionalDouble.of(10), PINNED, SLOW, NONE, holds, NOW))
                .as("a pinned thread is the saturation trigger's incident").isEmpty();
        assertThat(decision.decide(OptionalDouble.of(80), HOT_NOT_PINNED, SLOW, NONE, holds, NOW))
                .as("at the threshold (compared strictly) the CPU owns nothing").hasValue(SessionTrigger.LATENCY);

        assertThat(decision(false, true, false).decide(OptionalDouble.of(95), PINNED, SLOW, NONE, new Holds(), NOW))
                .as("profiler.cpu.enabled=false: busy CPU or not, slow requests are latency's")
                .hasValue(SessionTrigger.LATENCY);
    }

    @Test
    void theLatencyTriggerIsItsOwnSwitchAndSlowRequestsAreNoMomentForAReference() {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setEnabled(false);
        options.setStartupGrace(Duration.ZERO);
        assertThat(new TriggerDecision(options, true, 2).decide(OptionalDouble.of(10), NO_THREAD, SLOW, NONE, holds,
                NOW)).as("profiler.cpu.enabled=false").hasValue(SessionTrigger.LATENCY);
        holds.startLatencyCooldown(NOW.plus(Duration.ofHours(1)));
        assertThat(new TriggerDecision(options, true, 2).decide(OptionalDouble.of(10), NO_THREAD, SLOW, NONE, holds,
                NOW)).as("a reference is due, but requests are slow").isEmpty();
        options.getLatency().setEnabled(false);
        assertThat(new TriggerDecision(options, true, 2).decide(OptionalDouble.of(10), NO_THREAD, SLOW, NONE,
                new Holds(), NOW)).as("profiler.latency.enabled=false: a reference instead")
                .hasValue(SessionTrigger.REFERENCE);
    }

    @Test
    void aCooldownHoldsBothTriggersUntilItEnds() {
        holds.startCooldown(NOW.plus(Duration.ofMinutes(10)));

        assertThat(decide(100, NO_THREAD)).isEmpty();
        assertThat(decide(25, PINNED)).isEmpty();
        assertThat(decision.decide(OptionalDouble.of(25), PINNED, NO_SLOW, NONE, holds, NOW.plus(Duration.ofMinutes(10))))
                .hasValue(SessionTrigger.SATURATION);
    }

    /** The common poll goes no further: nothing could trigger, whatever the holds say. */
    @Test
    void aCalmPollHasNothingToDecide() {
        assertThat(decision.nothingToDecide(OptionalDouble.of(50), NO_THREAD, NO_SLOW)).isTrue();
        assertThat(decision.nothingToDecide(OptionalDouble.of(80), HOT_NOT_PINNED, NO_SLOW)).isTrue();
        assertThat(decision.nothingToDecide(OptionalDouble.empty(), NO_THREAD, NO_SLOW)).isTrue();
        assertThat(decision.nothingToDecide(OptionalDouble.of(80.1), NO_THREAD, NO_SLOW)).isFalse();
        assertThat(decision.nothingToDecide(OptionalDouble.of(10), PINNED, NO_SLOW)).isFalse();
        assertThat(decision(true, false, false)
                .nothingToDecide(OptionalDouble.of(10), PINNED, NO_SLOW)).as("saturation off").isTrue();
    }

    // The reference of normal: due at once, then once the last is as old as the refresh; recorded only while calm.

    /** A clock that fails the test when read: what a decision must not need. */
    private static final Clock UNREAD = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            throw new AssertionError("the clock was read");
        }
    };

    private final TriggerDecision withReference = decision(true, true, true);

    private Optional<SessionTrigger> reference(double average, Optional<SaturationReading> hottest,
            TriggerDecision.Activity activity, Instant at) {
        return withReference.decide(OptionalDouble.of(average), hottest, NO_SLOW, activity, holds, at);
    }

    @Test
    void aCalmApplicationWithoutAReferenceRecordsOne() {
        assertThat(reference(10, NO_THREAD, NONE, NOW)).hasValue(SessionTrigger.REFERENCE);
        assertThat(reference(80, HOT_NOT_PINNED, NONE, NOW)).as("at the threshold, a thread hot but not pinned")
                .hasValue(SessionTrigger.REFERENCE);
        assertThat(withReference.referenceMayBeDue(holds, Clock.fixed(NOW, ZoneOffset.UTC),
                OptionalDouble.of(10))).isTrue();
    }

    @Test
    void anIdleApplicationGetsNoReferenceAsItWouldHoldTooFewSamples() {
        // Every default on 2 CPUs: 20 samples of a 10-s reference at 10 ms are 1% of 2 CPUs.
        TriggerDecision floored = new TriggerDecision(new CpuProfilerOptions().validate(), true, 2);
        assertThat(floored.idleBelowPercent()).isEqualTo(1.0);
        assertThat(floored.decide(OptionalDouble.of(0.05), NO_THREAD, NO_SLOW, NONE, holds, NOW)).as("an idle JVM's 0.05%")
                .isEmpty();
        assertThat(floored.decide(OptionalDouble.of(3), NO_THREAD, NO_SLOW, NONE, holds, NOW)).as("a light load's 3%")
                .hasValue(SessionTrigger.REFERENCE);
        // An idle poll decides without the clock.
        assertThat(floored.referenceMayBeDue(holds, UNREAD, OptionalDouble.of(0.05))).isFalse();
        assertThat(floored.referenceMayBeDue(holds, Clock.fixed(NOW, ZoneOffset.UTC), OptionalDouble.of(3))).isTrue();
    }

    @Test
    void noReferenceUnlessCalm() {
        assertThat(reference(80.1, NO_THREAD, NONE, NOW)).as("above the threshold: an incident")
                .hasValue(SessionTrigger.CPU);
        assertThat(reference(25, PINNED, NONE, NOW)).as("a pinned thread: an incident")
                .hasValue(SessionTrigger.SATURATION);
        assertThat(withReference.decide(OptionalDouble.empty(), NO_THREAD, NO_SLOW, NONE, holds, NOW)).as("no baseline yet")
                .isEmpty();
        assertThat(reference(30, NO_THREAD, TriggerDecision.Activity.RISING, NOW)).as("the CPU rising").isEmpty();
        assertThat(reference(30, NO_THREAD, TriggerDecision.Activity.REFERENCE_RECORDING, NOW))
                .as("one already records").isEmpty();

        TriggerDecision triggerOff = decision(false, false, true);
        assertThat(triggerOff.decide(OptionalDouble.of(95), NO_THREAD, NO_SLOW, NONE, holds, NOW))
                .as("above the threshold with the trigger off: no incident, and no calm either").isEmpty();
        assertThat(triggerOff.decide(OptionalDouble.of(30), PINNED, NO_SLOW, NONE, holds, NOW))
                .as("a pinned thread is no calm, whether or not it triggers").isEmpty();
        assertThat(triggerOff.decide(OptionalDouble.of(30), NO_THREAD, NO_SLOW, NONE, holds, NOW))
                .as("the reference does not need the CPU trigger").hasValue(SessionTrigger.REFERENCE);
    }

    @Test
    void anIncidentStillTriggersWhileAReferenceRecords() {
        assertThat(reference(90, NO_THREAD, TriggerDecision.Activity.REFERENCE_RECORDING, NOW))
                .hasValue(SessionTrigger.CPU);
        assertThat(reference(25, PINNED, TriggerDecision.Activity.REFERENCE_RECORDING, NOW))
                .hasValue(SessionTrigger.SATURATION);
    }

    @Test
    void theStartupGraceHoldsTheReferenceBackButACooldownDoesNot() {
        holds.startGrace(NOW.plusSeconds(60));
        assertThat(reference(10, NO_THREAD, NONE, NOW)).isEmpty();
        assertThat(withReference.referenceMayBeDue(holds, Clock.fixed(NOW, ZoneOffset.UTC),
                OptionalDouble.of(10))).isFalse();
        assertThat(reference(10, NO_THREAD, NONE, NOW.plusSeconds(60))).hasValue(SessionTrigger.REFERENCE);

        holds.startCooldown(NOW.plus(Duration.ofHours(4)));
        assertThat(reference(10, NO_THREAD, NONE, NOW.plusSeconds(60))).as("calm is calm, in a cooldown too")
                .hasValue(SessionTrigger.REFERENCE);
    }

    @Test
    void aNewReferenceIsDueOnceTheLastIsAsOldAsTheRefresh() {
        holds.referenceRecorded(NOW);
        Instant due = NOW.plus(Duration.ofHours(1));

        assertThat(reference(10, NO_THREAD, NONE, due.minusSeconds(1))).isEmpty();
        assertThat(withReference.referenceMayBeDue(holds, Clock.fixed(due.minusSeconds(1), ZoneOffset.UTC),
                OptionalDouble.of(10)))
                .isFalse();
        assertThat(reference(10, NO_THREAD, NONE, due)).hasValue(SessionTrigger.REFERENCE);
        assertThat(withReference.referenceMayBeDue(holds, Clock.fixed(due, ZoneOffset.UTC),
                OptionalDouble.of(10))).isTrue();
    }

    @Test
    void aFailedOrCancelledReferenceIsTriedAgainOnlyAfterItsRetry() {
        holds.referenceFailed(NOW.plus(Duration.ofMinutes(5)));

        assertThat(reference(10, NO_THREAD, NONE, NOW.plus(Duration.ofMinutes(4)))).isEmpty();
        assertThat(withReference.referenceMayBeDue(holds, Clock.fixed(NOW, ZoneOffset.UTC),
                OptionalDouble.of(10))).isFalse();
        assertThat(reference(10, NO_THREAD, NONE, NOW.plus(Duration.ofMinutes(5))))
                .hasValue(SessionTrigger.REFERENCE);
    }

    @Test
    void referencesOffAreNeverDueAndReadNoClock() {
        assertThat(reference(10, NO_THREAD, NONE, NOW)).isPresent();
        assertThat(decide(10, NO_THREAD)).as("references off").isEmpty();
        assertThat(decision.referenceMayBeDue(holds, UNREAD, OptionalDouble.of(10))).isFalse();
    }

    @Test
    void unrestSaysWhyTheApplicationIsNotCalm() {
        assertThat(withReference.unrest(OptionalDouble.of(30), NO_THREAD, false)).isNull();
        assertThat(withReference.unrest(OptionalDouble.empty(), NO_THREAD, false)).isEqualTo("no baseline yet");
        assertThat(withReference.unrest(OptionalDouble.of(85), NO_THREAD, false))
                .isEqualTo("the CPU average 85.0% is above the threshold");
        assertThat(withReference.unrest(OptionalDouble.of(30), PINNED, false))
                .isEqualTo("thread 'event-loop-1' is pinned at a core");
        assertThat(withReference.unrest(OptionalDouble.of(30), NO_THREAD, true))
                .isEqualTo("the CPU is rising above its normal");
    }
}
