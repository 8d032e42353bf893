package dev.cpuprofiler.internal.lookback;

/**
 * What a CPU reading usually is lately, so that the look-back arms on a rise and not on a level: the lowest mean of
 * {@code bucketSamples} consecutive samples over the last {@code buckets} such spans (10-s means over 2 minutes with
 * the defaults). An application that runs at half its CPU all day has a normal of about half, and only a rise above it
 * arms the look-back; a burst lifts no mean it does not fill, and a lull of one span lowers it, which arms sooner,
 * never later.
 *
 * <p>One writer, the sampler's thread: each sample is an addition; once a span, one array write and a scan of the
 * {@code buckets} means. {@link #lowest()} may be read from any thread.
 */
final class NormalLevel {

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
            throw new IllegalArgumentException("bucketSamples and buckets must be at least 1: " + bucketSamples + ", "
                    + buckets);
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
