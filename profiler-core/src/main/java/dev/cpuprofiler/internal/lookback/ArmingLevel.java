package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;

/**
 * The look-back's arming rule, in CPU%. It arms on a rise, not on a level: when the CPU over the last
 * few seconds ({@link ArmingDecision#SMOOTHING}) is above {@link #percent(double)}, which is its normal (the lowest
 * {@link #NORMAL_BUCKET} mean of the last {@link #NORMAL_SPAN}) plus {@link #risePercent()}, at least
 * {@link #floorPercent()} ({@code lookback-arming-ratio × threshold}) and at most the threshold itself; it disarms
 * once it has stayed at or below that level for one look-back window. An application that sits above the floor all day
 * records nothing until it climbs; the trigger fires only after a whole average window above the threshold, which
 * always arms it, so a rise that will trigger arms the look-back before: its ring holds the rise by the time the
 * profile starts. Nothing arms during the trigger's start-up grace or near the end of its cooldown: the trigger's
 * holds ({@link TriggerHolds}) say so, not this rule.
 */
public final class ArmingLevel {

    /**
     * How far back the normal level looks: the lowest of its means over this span. Longer would arm a slower ramp
     * early, but a ramp that reaches the threshold arms it there anyway, and the ring holds only the last window; a
     * plateau costs a recording for this long before it is the normal.
     */
    public static final Duration NORMAL_SPAN = Duration.ofMinutes(2);

    /** The span of one mean of the normal level. */
    public static final Duration NORMAL_BUCKET = Duration.ofSeconds(10);

    private final double thresholdPercent;
    private final double ratio;
    private final double threadLevelPercent;

    /**
     * By the CPU trigger's threshold and {@code lookback-arming-ratio}; and, while the saturation trigger is on, by
     * a pinned thread: its recent CPU above ratio × the saturation threshold (percent of ONE core) arms it too, while
     * the process's CPU% stays low.
     */
    public ArmingLevel(CpuProfilerOptions options) {
        this.thresholdPercent = options.getThreshold();
        this.ratio = options.getLookbackArmingRatio();
        this.threadLevelPercent = options.getSaturation().isEnabled() ? options.getSaturation().getThreshold() * ratio
                : Double.NaN;
    }

    /** How many means the normal level keeps: {@link #NORMAL_SPAN} of {@link #NORMAL_BUCKET}s. */
    static int normalBuckets() {
        return (int) (NORMAL_SPAN.toNanos() / NORMAL_BUCKET.toNanos());
    }

    double thresholdPercent() {
        return thresholdPercent;
    }

    double ratio() {
        return ratio;
    }

    /** The hottest thread's floor, in percent of one core; NaN when the saturation trigger is off. */
    double threadLevelPercent() {
        return threadLevelPercent;
    }

    /** The floor of the arming level: the recent CPU% must exceed it in any case. */
    public double floorPercent() {
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
     * {@link #risePercent()}, at least {@link #floorPercent()} and at most the threshold (above the threshold a trigger
     * can come, whatever was normal). The floor when the normal is not known yet (NaN).
     */
    public double percent(double normalPercent) {
        return level(normalPercent, floorPercent(), thresholdPercent);
    }

    /**
     * {@link #percent(double)} for the hottest thread, in percent of one core: between the thread level and the
     * saturation threshold. NaN when the saturation trigger is off.
     */
    public double threadPercent(double normalPercent) {
        double floor = threadLevelPercent;
        return Double.isNaN(floor) ? Double.NaN : level(normalPercent, floor, floor / ratio);
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
