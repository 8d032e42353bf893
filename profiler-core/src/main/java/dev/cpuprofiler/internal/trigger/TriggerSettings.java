package dev.cpuprofiler.internal.trigger;

import java.time.Duration;
import java.util.Objects;

/**
 * What the policy needs to know. The user-facing ranges are checked where the options are read; this record
 * refuses only values the policy cannot work with.
 *
 * @param enabled whether CPU starts sessions
 * @param thresholdPercent the average must exceed this (strictly); greater than 0 and at most 100
 * @param cooldown quiet time after a CPU-triggered session ends; zero or positive
 * @param duration how long a CPU-triggered session records; positive
 * @param watchdogGrace how long past its duration a session may run before the policy gives up on it; positive
 * @param startupGrace how long after monitoring starts the CPU does not trigger ({@link
 *     SessionCoordinator#monitoringStarted()}); zero or positive
 */
public record TriggerSettings(boolean enabled, double thresholdPercent, Duration cooldown, Duration duration,
        Duration watchdogGrace, Duration startupGrace) {

    /** Without a start-up grace. */
    public TriggerSettings(boolean enabled, double thresholdPercent, Duration cooldown, Duration duration,
            Duration watchdogGrace) {
        this(enabled, thresholdPercent, cooldown, duration, watchdogGrace, Duration.ZERO);
    }

    public TriggerSettings {
        Objects.requireNonNull(cooldown, "cooldown");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(watchdogGrace, "watchdogGrace");
        Objects.requireNonNull(startupGrace, "startupGrace");
        if (!(thresholdPercent > 0 && thresholdPercent <= 100)) {
            throw new IllegalArgumentException("thresholdPercent must be in (0, 100], was " + thresholdPercent);
        }
        if (cooldown.isNegative() || startupGrace.isNegative()) {
            throw new IllegalArgumentException("cooldown and startupGrace must not be negative, were " + cooldown
                    + " and " + startupGrace);
        }
        if (duration.isNegative() || duration.isZero() || watchdogGrace.isNegative() || watchdogGrace.isZero()) {
            throw new IllegalArgumentException("duration and watchdogGrace must be positive, were " + duration
                    + " and " + watchdogGrace);
        }
    }
}
