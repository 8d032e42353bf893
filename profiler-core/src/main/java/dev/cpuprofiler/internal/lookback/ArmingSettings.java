package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;

/**
 * When the look-back records. Armed, it keeps its ring filled; idle, it records nothing (no JFR, no ring). It arms
 * on a rise, not on a level: when the CPU over the last {@code smoothingSamples} CPU samples is above
 * {@link #levelPercent(double)}, which is its normal (the lowest {@link #NORMAL_BUCKET} mean of the last
 * {@link #NORMAL_SPAN}) plus {@link #risePercent()}, at least {@code ratio × thresholdPercent} and at most the
 * threshold itself; it disarms once it has stayed at or below that level for {@code disarmAfter}. An application that
 * sits above the floor all day records nothing until it climbs; the trigger fires only after a whole average window
 * above the threshold, which always arms it, so a rise that will trigger arms the look-back before: its ring holds the
 * rise by the time the profile starts. Nothing arms during the trigger's start-up grace or near the end of its
 * cooldown: the trigger's holds ({@link TriggerHolds}) say so, not these settings.
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

    /**
     * How far back the normal level looks: the lowest of its means over this span. Longer would arm a slower ramp
     * early, but a ramp that reaches the threshold arms it there anyway, and the ring holds only the last window; a
     * plateau costs a recording for this long before it is the normal.
     */
    public static final Duration NORMAL_SPAN = Duration.ofMinutes(2);

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

    /** How many means the normal level keeps: {@link #NORMAL_SPAN} of {@link #NORMAL_BUCKET}s. */
    public static int normalBuckets() {
        return (int) (NORMAL_SPAN.toNanos() / NORMAL_BUCKET.toNanos());
    }

    /** The floor of the arming level: the recent CPU% must exceed it in any case. */
    public double levelPercent() {
        return thresholdPercent * ratio;
    }

    /**
     * How far above its normal the CPU must rise to arm: half the distance between the floor and the threshold (16
     * points with the defaults), wider than the 3-s average's wobble under steady load.
     */
    public double risePercent() {
        return rise(thresholdPercent);
    }

    /**
     * The CPU% the recent average must exceed to arm, for a CPU whose normal is {@code normalPercent}: the normal plus
     * {@link #risePercent()}, at least {@link #levelPercent()} and at most the threshold (above the threshold a trigger
     * can come, whatever was normal). The floor when the normal is not known yet (NaN).
     */
    public double levelPercent(double normalPercent) {
        return level(normalPercent, levelPercent(), thresholdPercent);
    }

    /** {@link #levelPercent(double)} for the hottest thread, in percent of one core: between the thread level and the
     * saturation threshold. NaN when the saturation trigger is off. */
    public double threadLevelPercent(double normalPercent) {
        return Double.isNaN(threadLevelPercent) ? Double.NaN
                : level(normalPercent, threadLevelPercent, threadLevelPercent / ratio);
    }

    private double level(double normal, double floor, double ceiling) {
        if (Double.isNaN(normal)) {
            return floor;
        }
        return Math.max(floor, Math.min(ceiling, normal + rise(ceiling)));
    }

    /** Half the distance between the floor ({@code ratio × ceiling}) and the ceiling. */
    private double rise(double ceiling) {
        return ceiling * (1 - ratio) / 2;
    }
}
