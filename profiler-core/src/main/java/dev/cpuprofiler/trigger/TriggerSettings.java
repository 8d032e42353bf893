package dev.cpuprofiler.trigger;

import dev.cpuprofiler.core.CpuProfilerOptions;
import java.time.Duration;

/**
 * What the policy needs to know.
 *
 * @param enabled whether CPU starts sessions
 * @param thresholdPercent the average must exceed this (strictly)
 * @param cooldown quiet time after a CPU-triggered session ends
 * @param duration how long a CPU-triggered session records
 * @param watchdogGrace how long past its duration a session may run before the policy gives up on it
 */
public record TriggerSettings(boolean enabled, double thresholdPercent, Duration cooldown, Duration duration,
        Duration watchdogGrace) {

    public static TriggerSettings from(CpuProfilerOptions options) {
        return new TriggerSettings(options.isEnabled(), options.getThreshold(), options.getCooldown(),
                options.getDuration(), Duration.ofSeconds(30));
    }
}
