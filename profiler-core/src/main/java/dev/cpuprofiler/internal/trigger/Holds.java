package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.internal.lookback.TriggerHolds;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What holds the trigger back, kept once for the trigger and the look-back: the start-up grace (JIT warm-up and caches
 * filling burn CPU that is no incident), the cooldown after a session the profiler started by itself, and the
 * shutdown. The {@link SessionCoordinator} writes them; its {@link TriggerDecision}, the look-back and the status read
 * them, without a lock. A session running is no hold here: the coordinator's {@link SessionSlot} is that, one truth.
 * Clock-free: each read is told the instant it asks about.
 */
public final class Holds implements TriggerHolds {

    private volatile Instant graceUntil;
    private volatile Instant cooldownUntil;
    private volatile String shutDownReason;

    /** The start-up grace holds until {@code until}; null: no grace. */
    public void startGrace(Instant until) {
        graceUntil = until;
    }

    /** The cooldown holds until {@code until}. */
    public void startCooldown(Instant until) {
        cooldownUntil = Objects.requireNonNull(until, "until");
    }

    /** From now on nothing starts, for this reason: the profiler is closing. */
    public void shutDown(String reason) {
        shutDownReason = Objects.requireNonNull(reason, "reason");
    }

    @Override
    public Optional<Instant> graceUntil(Instant now) {
        return inForce(graceUntil, now);
    }

    @Override
    public Optional<Instant> cooldownUntil(Instant now) {
        return inForce(cooldownUntil, now);
    }

    /** Time left in the cooldown at {@code now}, if one is in force. */
    public Optional<Duration> cooldownRemaining(Instant now) {
        return cooldownUntil(now).map(until -> Duration.between(now, until));
    }

    @Override
    public boolean isShutDown() {
        return shutDownReason != null;
    }

    /** Why nothing starts any more, if the profiler is shutting down. */
    public Optional<String> shutDownReason() {
        return Optional.ofNullable(shutDownReason);
    }

    private static Optional<Instant> inForce(Instant until, Instant now) {
        return until != null && now.isBefore(until) ? Optional.of(until) : Optional.empty();
    }
}
