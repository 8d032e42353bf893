package dev.cpuprofiler.internal.trigger;

import java.time.Duration;
import java.util.Objects;

/**
 * The saturation trigger: a SATURATION profile when one application thread's CPU, averaged over {@code window},
 * stays at or above {@code thresholdPercent} of one core, under the CPU trigger's rules (enabled, grace, cooldown).
 *
 * @param enabled whether a pinned thread starts sessions
 * @param thresholdPercent percent of one core; greater than 0 and at most 100
 * @param window the span a thread's CPU is averaged over; positive
 */
public record SaturationSettings(boolean enabled, double thresholdPercent, Duration window) {

    /** Off: only the CPU triggers. */
    public static final SaturationSettings OFF = new SaturationSettings(false, 100, Duration.ofSeconds(60));

    public SaturationSettings {
        Objects.requireNonNull(window, "window");
        if (!(thresholdPercent > 0 && thresholdPercent <= 100) || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("thresholdPercent must be in (0, 100] and window positive, were "
                    + thresholdPercent + " and " + window);
        }
    }
}
