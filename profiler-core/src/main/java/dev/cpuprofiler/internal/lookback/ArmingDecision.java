package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * Whether the look-back should be armed, and from when it may be. Fed every CPU sample on the sampler's thread, it
 * says whether the recent CPU, or one thread's, rose above its arming level ({@link ArmingLevel}); the trigger's
 * holds say from when it may arm: the end of the start-up grace, and one window before a cooldown ends, so that its
 * window is full when the trigger can fire again and nothing is sampled for the hours in between. It says why it is
 * not armed (the status) and why it armed (the log). Its readings are read by status readers on any thread.
 */
final class ArmingDecision {

    /** Over how long the CPU samples are averaged before they are compared with the arming level, at most. */
    static final Duration SMOOTHING = Duration.ofSeconds(3);

    private final boolean always;
    private final Duration smoothing;
    private final ArmingLevel level;
    private final TriggerHolds holds;
    private final Duration window;
    private final DoubleSupplier hottestThreadPercent;
    private final ArmingSignal signal;
    private final ArmingSignal threadSignal;
    private final NormalLevel normal;
    private final NormalLevel threadNormal;

    /**
     * Arming by the options' {@link ArmingLevel}, over the CPU samples of the last {@link #SMOOTHING}, or of a quarter
     * of the average window if that is shorter (at least one sample), so it always arms well before the trigger can
     * fire; disarmed after one look-back window at or below the level.
     *
     * @param always armed from the start, whatever the CPU, and never disarmed (no arming level)
     * @param hottestThreadPercent the highest share of one core a thread used at the latest tick, read with each
     *        sample, for {@link ArmingLevel#threadLevelPercent()}
     */
    ArmingDecision(CpuProfilerOptions options, boolean always, TriggerHolds holds,
            DoubleSupplier hottestThreadPercent) {
        Duration cpuSamples = options.getSamplingInterval();
        Duration quarter = options.getAverageWindow().dividedBy(4);
        Duration span = quarter.compareTo(SMOOTHING) < 0 ? quarter : SMOOTHING;
        int smoothingSamples = (int) Math.max(1, Math.round((double) span.toNanos() / cpuSamples.toNanos()));
        int bucketSamples = (int) Math.max(1, Math.round((double) ArmingLevel.NORMAL_BUCKET.toNanos()
                / cpuSamples.toNanos()));
        this.always = always;
        this.smoothing = cpuSamples.multipliedBy(smoothingSamples);
        this.level = new ArmingLevel(options);
        this.holds = Objects.requireNonNull(holds, "holds");
        this.window = options.getLookback();
        this.hottestThreadPercent = Objects.requireNonNull(hottestThreadPercent, "hottestThreadPercent");
        this.signal = new ArmingSignal(smoothingSamples);
        this.threadSignal = new ArmingSignal(smoothingSamples);
        this.normal = new NormalLevel(bucketSamples, ArmingLevel.normalBuckets());
        this.threadNormal = new NormalLevel(bucketSamples, ArmingLevel.normalBuckets());
    }

    /** Armed from the start and never disarmed. */
    boolean always() {
        return always;
    }

    /** The span of CPU samples averaged. */
    Duration smoothing() {
        return smoothing;
    }

    /** How long the CPU must stay at or below the level before it disarms: one look-back window. */
    Duration disarmAfter() {
        return window;
    }

    /** One CPU sample, on the sampler's thread (after the thread tracker's, whose hottest thread it reads). */
    void add(double percent) {
        signal.add(percent);
        normal.add(percent);
        if (!Double.isNaN(level.threadLevelPercent())) {
            double thread = hottestThreadPercent.getAsDouble();
            threadSignal.add(thread);
            threadNormal.add(thread);
        }
    }

    /** Whether to be armed: always, or the process's recent CPU% or one thread's rose above its arming level. */
    boolean hot() {
        return always || processHot() || threadHot();
    }

    /** The floor first: a calm tick compares one number and never looks at the normal level. */
    private boolean processHot() {
        return signal.above(level.floorPercent()) && signal.above(level.percent(normal.lowest()));
    }

    /** One thread's recent CPU (NaN-safe: off without the saturation trigger) rose above its arming level. */
    private boolean threadHot() {
        return !Double.isNaN(level.threadLevelPercent()) && threadSignal.above(level.threadLevelPercent())
                && threadSignal.above(level.threadPercent(threadNormal.lowest()));
    }

    /** Whether the holds let it arm at {@code now}. */
    boolean armable(Instant now) {
        return armsFrom(now) == null;
    }

    /**
     * When the holds let it arm, if later than {@code now}: the end of the start-up grace, or one window before the
     * cooldown ends; null when they let it arm now.
     */
    Instant armsFrom(Instant now) {
        Instant grace = holds.graceUntil(now).orElse(null);
        Instant resume = resumesAt(now);
        Instant from = grace == null ? resume : resume == null || grace.isAfter(resume) ? grace : resume;
        return from != null && from.isAfter(now) ? from : null;
    }

    /** One window before the cooldown in force at {@code now} ends, or null. */
    private Instant resumesAt(Instant now) {
        return holds.cooldownUntil(now).map(until -> until.minus(window)).orElse(null);
    }

    /** Why it is idle at {@code now}. */
    String idleReason(Instant now) {
        Instant resume = resumesAt(now);
        if (resume != null && now.isBefore(resume)) {
            return "it steps aside during the cooldown after a CPU-triggered profile; it may arm again from " + resume
                    + ", one window before the trigger can fire again";
        }
        Instant grace = holds.graceUntil(now).orElse(null);
        if (grace != null) {
            return "start-up grace: it may arm from " + grace;
        }
        double recent = signal.mean();
        if (Double.isNaN(recent)) {
            return "waiting for " + seconds(smoothing) + " of CPU samples";
        }
        double usual = normal.lowest();
        double threadLevel = level.threadPercent(threadNormal.lowest());
        return "the CPU over the last " + seconds(smoothing) + ", " + fmt(recent)
                + "%, is not above the arming level " + fmt(level.percent(usual)) + "% (" + levelWhy(usual)
                + ")" + (Double.isNaN(threadLevel) ? "" : ", nor any thread's above " + fmt(threadLevel)
                        + "% of one core");
    }

    /** Why it armed just now, and how long it stays armed, for the log. */
    String armedReason() {
        if (threadHot() && !processHot()) {
            double usual = threadNormal.lowest();
            return "a thread used " + fmt(threadSignal.mean()) + "% of one core over the last "
                    + seconds(smoothing) + ", above " + fmt(level.threadPercent(usual)) + "% (at least "
                    + fmt(level.ratio()) + " of the saturation threshold" + (Double.isNaN(usual) ? ""
                            : ", and a rise above the hottest thread's normal " + fmt(usual) + "%") + ")";
        }
        double usual = normal.lowest();
        return "the CPU over the last " + seconds(smoothing) + ", " + fmt(signal.mean()) + "%, is above "
                + fmt(level.percent(usual)) + "% (" + levelWhy(usual) + ")";
    }

    /** Why the arming level is what it is, for a CPU whose normal is {@code usual}. */
    private String levelWhy(double usual) {
        String floor = fmt(level.ratio()) + " of the " + fmt(level.thresholdPercent()) + "% threshold";
        double at = level.percent(usual);
        if (Double.isNaN(usual) || at == level.floorPercent()) {
            return floor;
        }
        String normalIs = "its normal, the lowest " + seconds(ArmingLevel.NORMAL_BUCKET) + " average of the last "
                + ArmingLevel.NORMAL_SPAN.toMinutes() + " min, is " + fmt(usual) + "%";
        if (at == level.thresholdPercent()) {
            return "the threshold: " + normalIs + ", within " + fmt(level.risePercent()) + " points of it";
        }
        return normalIs + ": it arms on a rise of " + fmt(level.risePercent()) + " points above it, and above "
                + floor;
    }

    /** The arming rule it applies, in CPU%. */
    ArmingLevel level() {
        return level;
    }

    /** The CPU% the recent average must exceed to arm now; null when always armed. */
    Double levelPercent() {
        return always ? null : level.percent(normal.lowest());
    }

    /** The recent CPU% it compares with the level; null until it has enough samples. */
    Double recentPercent() {
        double recent = signal.mean();
        return Double.isNaN(recent) ? null : recent;
    }

    /** The CPU% that is normal lately; null when always armed or not known yet. */
    Double normalPercent() {
        double usual = normal.lowest();
        return always || Double.isNaN(usual) ? null : usual;
    }

    static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /**
     * The recent CPU the look-back arms on: the mean of the latest few CPU samples (a sample that is not a number, the
     * sampler's first, is skipped). Its mean counts only once it holds that many samples, so the look-back neither arms
     * on a single busy second nor right after start on too little data. Not thread-safe: the sampler's thread feeds it;
     * {@link #mean()} is published through a volatile for status readers.
     */
    private static final class ArmingSignal {

        private final double[] window;
        private int next;
        private int count;
        private double sum;
        private volatile double mean = Double.NaN;

        ArmingSignal(int samples) {
            this.window = new double[samples];
        }

        /** Adds one CPU sample (percent of the effective CPUs); NaN is ignored. */
        void add(double percent) {
            if (Double.isNaN(percent)) {
                return;
            }
            if (count == window.length) {
                sum -= window[next];
            } else {
                count++;
            }
            window[next] = percent;
            sum += percent;
            next = (next + 1) % window.length;
            // Summing the few values again would cost as little; subtracting keeps it one step per sample.
            mean = count == window.length ? Math.max(0, sum / count) : Double.NaN;
        }

        /** The mean of the latest samples, or NaN until there are enough of them. */
        double mean() {
            return mean;
        }

        /** Whether the mean is known and strictly above {@code levelPercent}. */
        boolean above(double levelPercent) {
            double m = mean;
            return !Double.isNaN(m) && m > levelPercent;
        }
    }

    /**
     * What a CPU reading usually is lately, so that the look-back arms on a rise and not on a level: the lowest mean
     * of {@code bucketSamples} consecutive samples over the last {@code buckets} such spans (10-s means over 2 minutes
     * with the defaults). An application that runs at half its CPU all day has a normal of about half, and only a rise
     * above it arms the look-back; a burst lifts no mean it does not fill, and a lull of one span lowers it, which
     * arms sooner, never later.
     *
     * <p>One writer, the sampler's thread: each sample is an addition; once a span, one array write and a scan of the
     * {@code buckets} means. {@link #lowest()} may be read from any thread.
     */
    private static final class NormalLevel {

        private final int bucketSamples;
        private final double[] means;
        private int filled;
        private int next;
        private int inBucket;
        private double bucketSum;
        private volatile double lowest = Double.NaN;

        /**
         * @param bucketSamples samples averaged into one mean, at least 1
         * @param buckets how many means are kept, at least 1
         */
        NormalLevel(int bucketSamples, int buckets) {
            if (bucketSamples < 1 || buckets < 1) {
                throw new IllegalArgumentException("bucketSamples and buckets must be at least 1: " + bucketSamples
                        + ", " + buckets);
            }
            this.bucketSamples = bucketSamples;
            this.means = new double[buckets];
        }

        /** Adds one sample (percent); NaN is ignored. */
        void add(double percent) {
            if (Double.isNaN(percent)) {
                return;
            }
            bucketSum += percent;
            if (++inBucket < bucketSamples) {
                return;
            }
            means[next] = bucketSum / bucketSamples;
            next = (next + 1) % means.length;
            filled = Math.min(filled + 1, means.length);
            inBucket = 0;
            bucketSum = 0;
            double low = Double.POSITIVE_INFINITY;
            for (int i = 0; i < filled; i++) {
                low = Math.min(low, means[i]);
            }
            lowest = low;
        }

        /** The lowest kept mean, or NaN before the first span is complete. */
        double lowest() {
            return lowest;
        }
    }
}
