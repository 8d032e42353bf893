package dev.cpuprofiler.internal.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The holds the trigger and the look-back share: each in force until its instant, not at it. */
class HoldsTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

    private final Holds holds = new Holds();

    @Test
    void nothingHoldsAtFirst() {
        assertThat(holds.graceUntil(NOW)).isEmpty();
        assertThat(holds.cooldownUntil(NOW)).isEmpty();
        assertThat(holds.cooldownRemaining(NOW)).isEmpty();
        assertThat(holds.isShutDown()).isFalse();
        assertThat(holds.shutDownReason()).isEmpty();
        assertThat(holds.lastReference()).isEmpty();
        assertThat(holds.referenceRetryAt(NOW)).isEmpty();
    }

    @Test
    void aFailedReferenceHoldsTheNextAttemptBackUntilItsRetryOrARecordedOne() {
        holds.referenceFailed(NOW.plus(Duration.ofMinutes(5)));

        assertThat(holds.referenceRetryAt(NOW)).hasValue(NOW.plus(Duration.ofMinutes(5)));
        assertThat(holds.referenceRetryAt(NOW.plus(Duration.ofMinutes(5)))).isEmpty();

        holds.referenceRecorded(NOW.plusSeconds(10));
        assertThat(holds.lastReference()).hasValue(NOW.plusSeconds(10));
        assertThat(holds.referenceRetryAt(NOW)).as("a reference recorded forgets the failed attempt").isEmpty();
    }

    @Test
    void theGraceHoldsUntilItsEnd() {
        holds.startGrace(NOW.plusSeconds(60));

        assertThat(holds.graceUntil(NOW)).hasValue(NOW.plusSeconds(60));
        assertThat(holds.graceUntil(NOW.plusSeconds(60))).isEmpty();
        holds.startGrace(null);
        assertThat(holds.graceUntil(NOW)).as("no grace").isEmpty();
    }

    @Test
    void theCooldownHoldsUntilItsEndAndSaysWhatIsLeft() {
        holds.startCooldown(NOW.plus(Duration.ofMinutes(30)));

        assertThat(holds.cooldownUntil(NOW)).hasValue(NOW.plus(Duration.ofMinutes(30)));
        assertThat(holds.cooldownRemaining(NOW.plus(Duration.ofMinutes(20)))).hasValue(Duration.ofMinutes(10));
        assertThat(holds.cooldownUntil(NOW.plus(Duration.ofMinutes(30)))).isEmpty();
        assertThat(holds.cooldownRemaining(NOW.plus(Duration.ofMinutes(30)))).isEmpty();

        holds.startCooldown(NOW.plus(Duration.ofHours(4)));
        assertThat(holds.cooldownUntil(NOW)).as("a later session's cooldown replaces it")
                .hasValue(NOW.plus(Duration.ofHours(4)));
    }

    @Test
    void theShutdownHoldsForGoodWithItsReason() {
        holds.shutDown("the profiler is shutting down");

        assertThat(holds.isShutDown()).isTrue();
        assertThat(holds.shutDownReason()).hasValue("the profiler is shutting down");
    }
}
