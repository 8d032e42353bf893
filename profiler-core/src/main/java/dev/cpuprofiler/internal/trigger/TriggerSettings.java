package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;

/**
 * What the policy needs to know: the options' values, checked there.
 *
 * @param enabled whether CPU starts sessions
 * @param thresholdPercent the average must exceed this (strictly)
 * @param cooldown quiet time after a CPU-triggered session ends
 * @param duration how long a CPU-triggered session records
 * @param watchdogGrace how long past its duration a session may run before the policy gives up on it
 * @param startupGrace how long after monitoring starts the CPU does not trigger ({@link
 *     SessionCoordinator#monitoringStarted()})
 */
public record TriggerSettings(boolean enabled, double thresholdPercent, Duration cooldown, Duration duration,
        Duration watchdogGrace, Duration startupGrace) {

    /** How long past its duration a CPU-triggered session may run before the policy gives up on it. */
    static final Duration WATCHDOG_GRACE = Duration.ofSeconds(30);

    public static TriggerSettings of(CpuProfilerOptions o) {
        return new TriggerSettings(o.isEnabled(), o.getThreshold(), o.getCooldown(), o.getDuration(), WATCHDOG_GRACE,
                o.getStartupGrace());
    }
}
