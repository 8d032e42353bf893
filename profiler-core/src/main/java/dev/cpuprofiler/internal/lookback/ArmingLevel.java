package dev.cpuprofiler.internal.lookback;

import java.time.Duration;

/**
 * The look-back's arming rule, in CPU%. It arms on a rise, not on a level: when the CPU over the last
 * {@link ArmingSettings#smoothing()} is above {@link #percent(double)}, which is its normal (the lowest
 * {@link ArmingSettings#NORMAL_BUCKET} mean of the last {@link #NORMAL_SPAN}) plus {@link #risePercent()}, at least
 * {@link #floorPercent()} ({@code ratio × threshold}) and at most the threshold itself; it disarms once it has stayed
 * at or below that level for {@link ArmingSettings#disarmAfter()}. An application that sits above the floor all day
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

    private final ArmingSettings arming;

    public ArmingLevel(ArmingSettings arming) {
        this.arming = arming;
    }

    /** How many means the normal level keeps: {@link #NORMAL_SPAN} of {@link ArmingSettings#NORMAL_BUCKET}s. */
    static int normalBuckets() {
        return (int) (NORMAL_SPAN.toNanos() / ArmingSettings.NORMAL_BUCKET.toNanos());
    }

    /** The floor of the arming level: the recent CPU% must exceed it in any case. */
    public double floorPercent() {
        return arming.thresholdPercent() * arming.ratio();
    }

    /**
     * How far above its normal the CPU must rise to arm: half the distance between the floor and the threshold (16
     * points with the defaults), wider than the 3-s average's wobble under steady load.
     */
    public double risePercent() {
        return rise(arming.thresholdPercent());
    }

    /**
     * The CPU% the recent average must exceed to arm, for a CPU whose normal is {@code normalPercent}: the normal plus
     * {@link #risePercent()}, at least {@link #floorPercent()} and at most the threshold (above the threshold a trigger
     * can come, whatever was normal). The floor when the normal is not known yet (NaN).
     */
    public double percent(double normalPercent) {
        return level(normalPercent, floorPercent(), arming.thresholdPercent());
    }

    /**
     * {@link #percent(double)} for the hottest thread, in percent of one core: between the thread level and the
     * saturation threshold. NaN when the saturation trigger is off.
     */
    public double threadPercent(double normalPercent) {
        double floor = arming.threadLevelPercent();
        return Double.isNaN(floor) ? Double.NaN : level(normalPercent, floor, floor / arming.ratio());
    }

    private double level(double normal, double floor, double ceiling) {
        if (Double.isNaN(normal)) {
            return floor;
        }
        return Math.max(floor, Math.min(ceiling, normal + rise(ceiling)));
    }

    /** Half the distance between the floor ({@code ratio × ceiling}) and the ceiling. */
    private double rise(double ceiling) {
        return ceiling * (1 - arming.ratio()) / 2;
    }
}
