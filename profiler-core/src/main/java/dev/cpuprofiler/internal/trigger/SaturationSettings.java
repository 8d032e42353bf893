package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;

/**
 * The saturation trigger: a SATURATION profile when one application thread's CPU, averaged over {@code window},
 * stays at or above {@code thresholdPercent} of one core, under the CPU trigger's rules (enabled, grace, cooldown).
 *
 * @param enabled whether a pinned thread starts sessions
 * @param thresholdPercent percent of one core
 * @param window the span a thread's CPU is averaged over
 */
public record SaturationSettings(boolean enabled, double thresholdPercent, Duration window) {

    /** Off: only the CPU triggers. */
    public static final SaturationSettings OFF = new SaturationSettings(false, 100, Duration.ofSeconds(60));

    /** Off without per-thread CPU ({@code threadCpu} false), or with the CPU trigger off. */
    public static SaturationSettings of(CpuProfilerOptions o, boolean threadCpu) {
        return new SaturationSettings(o.isEnabled() && o.getSaturation().isEnabled() && threadCpu,
                o.getSaturation().getThreshold(), o.effectiveSaturationWindow());
    }
}
