package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;

/**
 * When the look-back arms and disarms, as the options set it; the rule itself, in CPU%, is {@link ArmingLevel}'s.
 * Armed, the look-back keeps its ring filled; idle, it records nothing (no JFR, no ring).
 *
 * @param always armed from the start, whatever the CPU (no arming level): for tests and for callers that drive
 *     the look-back themselves
 * @param thresholdPercent the CPU trigger's threshold
 * @param ratio the share of the threshold that arms it
 * @param smoothing the span of CPU samples averaged (a few seconds, so a single busy second does not arm it)
 * @param smoothingSamples how many of the latest CPU samples that span holds
 * @param disarmAfter how long the CPU must stay at or below the level before it disarms
 * @param threadLevelPercent the percent of ONE core that the hottest thread's recent CPU must exceed to arm it too
 *     (ratio × the saturation trigger's threshold): a pinned thread arms it while the process's CPU% stays low; NaN
 *     when the saturation trigger is off
 * @param normalBucketSamples how many CPU samples one {@link #NORMAL_BUCKET} holds
 */
public record ArmingSettings(boolean always, double thresholdPercent, double ratio, Duration smoothing,
        int smoothingSamples, Duration disarmAfter, double threadLevelPercent,
        int normalBucketSamples) {

    /** Over how long the CPU samples are averaged before they are compared with the arming level, at most. */
    public static final Duration SMOOTHING = Duration.ofSeconds(3);

    /** The span of one mean of the normal level. */
    public static final Duration NORMAL_BUCKET = Duration.ofSeconds(10);

    /** Armed from the start, never disarmed. */
    public static final ArmingSettings ALWAYS = new ArmingSettings(true, 100, 1, Duration.ofSeconds(1), 1,
            Duration.ofSeconds(1), Double.NaN, 1);

    /**
     * Arming for these options: by the CPU trigger's threshold, and by a pinned thread while the saturation trigger is
     * on. Over the CPU samples of the last {@link #SMOOTHING}, or of a quarter of the average window if that is
     * shorter (at least one sample), so it always arms well before the trigger can fire; disarmed after one look-back
     * window at or below the level.
     */
    public static ArmingSettings of(CpuProfilerOptions o) {
        Duration cpuSamples = o.getSamplingInterval();
        Duration quarter = o.getAverageWindow().dividedBy(4);
        Duration span = quarter.compareTo(SMOOTHING) < 0 ? quarter : SMOOTHING;
        int samples = (int) Math.max(1, Math.round((double) span.toNanos() / cpuSamples.toNanos()));
        int bucket = (int) Math.max(1, Math.round((double) NORMAL_BUCKET.toNanos() / cpuSamples.toNanos()));
        double ratio = o.getLookbackArmingRatio();
        return new ArmingSettings(false, o.getThreshold(), ratio, cpuSamples.multipliedBy(samples), samples,
                o.getLookback(),
                o.getSaturation().isEnabled() ? o.getSaturation().getThreshold() * ratio : Double.NaN, bucket);
    }
}
