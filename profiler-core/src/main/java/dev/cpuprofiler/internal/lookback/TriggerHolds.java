package dev.cpuprofiler.internal.lookback;

import java.time.Instant;
import java.util.Optional;

/**
 * The trigger's holds as the look-back reads them: it arms neither in the start-up grace nor earlier than one window
 * before a cooldown ends (its window is full when the trigger can fire again), and starts nothing once the profiler
 * shuts down. The trigger keeps them ({@code trigger.Holds}), once for both; the look-back keeps no copy. Reads never
 * wait.
 */
public interface TriggerHolds {

    /** When the start-up grace ends, if it is in force at {@code now}. */
    Optional<Instant> graceUntil(Instant now);

    /** When the cooldown ends, if one is in force at {@code now}. */
    Optional<Instant> cooldownUntil(Instant now);

    /** Whether the profiler is shutting down: no session or recording starts any more. */
    boolean isShutDown();
}
