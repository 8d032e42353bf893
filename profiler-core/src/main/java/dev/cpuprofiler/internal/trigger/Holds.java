package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.internal.lookback.TriggerHolds;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What holds the trigger back, kept once for the trigger and the look-back: the start-up grace (JIT warm-up and caches
 * filling burn CPU that is no incident), the cooldown after a session the profiler started by itself, and the
 * shutdown; and the times the reference of normal is due by: when the last was recorded, and how long a failed or
 * cancelled one holds the next attempt back. The {@link SessionCoordinator} writes them; its {@link TriggerDecision},
 * the look-back and the status read them, without a lock. A session running is no hold here: the coordinator's
 * {@link SessionSlot} is that, one truth. Clock-free: each read is told the instant it asks about.
 */
public final class Holds implements TriggerHolds {

    private volatile Instant graceUntil;
    private volatile Instant cooldownUntil;
    private volatile Instant latencyCooldownUntil;
    private volatile String shutDownReason;
    private volatile Instant lastReference;
    private volatile Instant referenceRetryAt;

    /** The start-up grace holds until {@code until}; null: no grace. */
    public void startGrace(Instant until) {
        graceUntil = until;
    }

    /** The cooldown holds until {@code until}. */
    public void startCooldown(Instant until) {
        cooldownUntil = Objects.requireNonNull(until, "until");
    }

    /** The latency trigger's cooldown holds until {@code until}; the CPU's and saturation's are apart. */
    public void startLatencyCooldown(Instant until) {
        latencyCooldownUntil = Objects.requireNonNull(until, "until");
    }

    /** Until when the latency trigger's cooldown holds, if it does at {@code now}. */
    public Optional<Instant> latencyCooldownUntil(Instant now) {
        return inForce(latencyCooldownUntil, now);
    }

    /** From now on nothing starts, for this reason: the profiler is closing. */
    public void shutDown(String reason) {
        shutDownReason = Objects.requireNonNull(reason, "reason");
    }

    /** A reference of normal was recorded, complete {@code at}: the next is due once it is as old as the refresh. */
    public void referenceRecorded(Instant at) {
        lastReference = Objects.requireNonNull(at, "at");
        referenceRetryAt = null;
    }

    /** A reference failed or was cancelled: the next attempt not before {@code until}. */
    public void referenceFailed(Instant until) {
        referenceRetryAt = Objects.requireNonNull(until, "until");
    }

    /** When the last reference was recorded, if one was. */
    public Optional<Instant> lastReference() {
        return Optional.ofNullable(lastReference);
    }

    /** Until when a failed or cancelled reference holds the next attempt back, if it does at {@code now}. */
    public Optional<Instant> referenceRetryAt(Instant now) {
        return inForce(referenceRetryAt, now);
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
