package dev.cpuprofiler.internal.baseline;

/**
 * One completed rolling-history interval.
 *
 * @param endNanoTime the ticker's reading when the interval closed
 * @param cpuNanos CPU time used during the interval
 * @param wallNanos the interval's actual length
 * @param percent the true average CPU% over the interval
 */
public record BaselineSlot(long endNanoTime, long cpuNanos, long wallNanos, double percent) {
}
