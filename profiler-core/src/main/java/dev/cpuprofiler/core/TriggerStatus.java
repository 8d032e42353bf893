package dev.cpuprofiler.core;

import java.time.Duration;
import java.time.Instant;

/**
 * The CPU trigger's settings and cooldown.
 *
 * @param enabled whether high CPU starts profiles
 * @param cooldown the configured cooldown
 * @param cooldownUntil when the current cooldown ends, or null
 * @param cooldownRemaining time left in it, or null
 * @param startupGraceUntil when the start-up grace ends (no CPU trigger, no look-back before), or null once over
 * @param startupGraceRemaining time left in it, or null
 */
public record TriggerStatus(boolean enabled, Duration cooldown, Instant cooldownUntil, Duration cooldownRemaining,
        Instant startupGraceUntil, Duration startupGraceRemaining) {
}
