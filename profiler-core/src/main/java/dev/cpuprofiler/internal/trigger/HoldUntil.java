package dev.cpuprofiler.internal.trigger;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** A time before which the CPU does not trigger: the start-up grace, the cooldown. Read without a lock. */
final class HoldUntil {

    private volatile Instant until;

    /** Holds until this instant; null holds nothing. */
    void set(Instant until) {
        this.until = until;
    }

    /** When the hold ends, if it is in force at {@code now}. */
    Optional<Instant> inForce(Instant now) {
        Instant u = until;
        return u != null && now.isBefore(u) ? Optional.of(u) : Optional.empty();
    }

    /** Time left at {@code now}, if the hold is in force. */
    Optional<Duration> remaining(Instant now) {
        return inForce(now).map(u -> Duration.between(now, u));
    }

    /** When a hold that is over at {@code now} ended, forgetting it (said once); empty if none or still in force. */
    Optional<Instant> takeEnded(Instant now) {
        Instant u = until;
        if (u == null || now.isBefore(u)) {
            return Optional.empty();
        }
        until = null;
        return Optional.of(u);
    }
}
