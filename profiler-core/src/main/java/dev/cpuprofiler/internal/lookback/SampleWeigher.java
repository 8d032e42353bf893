package dev.cpuprofiler.internal.lookback;

import java.time.Duration;

/**
 * Weighs samples taken every {@code period} in units of {@code unit}: 20 ms samples in 10 ms units weigh 2 each.
 * When the ratio is not whole (15 ms in 10 ms units), the remainder is carried to the next sample (1, 2, 1, 2, ...),
 * so the total over many samples is exact to within one unit instead of drifting by rounding every sample.
 * Not thread-safe: its owner serializes calls.
 */
final class SampleWeigher {

    private final long unitNanos;
    private long periodNanos;
    private long carry;

    SampleWeigher(Duration period, Duration unit) {
        this.unitNanos = unit.toNanos();
        this.periodNanos = period.toNanos();
    }

    /** The weight of the next sample (may be 0 when samples are finer than the unit). */
    long next() {
        return next(periodNanos);
    }

    /**
     * The weight of the next sample when it stands for {@code period} itself (a JFR CPU-time sample says which
     * period it was taken at). The remainder is carried as for any other sample, so totals stay exact.
     */
    long next(Duration period) {
        return next(period.toNanos());
    }

    private long next(long nanos) {
        carry += nanos;
        long weight = carry / unitNanos;
        carry -= weight * unitNanos;
        return weight;
    }

    /** Samples from now on come every {@code period}. */
    void period(Duration period) {
        this.periodNanos = period.toNanos();
    }

    Duration period() {
        return Duration.ofNanos(periodNanos);
    }

    /** Starts a new count (nothing carried over from samples of an earlier part). */
    void reset() {
        carry = 0;
    }
}
