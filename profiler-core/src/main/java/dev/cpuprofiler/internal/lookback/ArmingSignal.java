package dev.cpuprofiler.internal.lookback;

/**
 * The recent CPU the look-back arms on: the mean of the latest few CPU samples (a sample that is not a number, the
 * sampler's first, is skipped). Its mean counts only once it holds that many samples, so the look-back neither arms
 * on a single busy second nor right after start on too little data. Not thread-safe: the sampler's thread feeds it;
 * {@link #mean()} is published through a volatile for status readers.
 */
final class ArmingSignal {

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
