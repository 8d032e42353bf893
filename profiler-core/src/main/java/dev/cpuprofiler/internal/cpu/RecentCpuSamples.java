package dev.cpuprofiler.internal.cpu;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The last few minutes of the sampler's CPU% readings, for a chart: a fixed ring of {@code long}s, each a sample's
 * time and percentage packed together, so that a tick costs one array write and one volatile counter write, and
 * allocates nothing (an idle application's profiler stays within its budget of a few ms of CPU a minute).
 *
 * <p>One writer, the sampler's thread; any number of readers. A reader takes the counter first (which publishes
 * every entry written before it), then the entries; one the writer overwrites meanwhile is newer than the rest and
 * is recognised by its time, which must rise from entry to entry, and left out.
 */
public final class RecentCpuSamples implements CpuSampleListener {

    /** How far back the ring reaches at the sampler's interval. */
    public static final Duration SPAN = Duration.ofMinutes(5);

    /** Bounds the ring for a fine sampling interval (tests sample every 100 ms). */
    static final int MAX_CAPACITY = 3000;

    // Percent in hundredths (0..10000) in the low 16 bits, milliseconds since the first sample above them.
    private static final int PERCENT_BITS = 16;
    private static final long PERCENT_MASK = (1L << PERCENT_BITS) - 1;

    private final long[] ring;
    private long originNanos; // written once, before the first count update that publishes it
    private volatile long count;

    /** @param capacity samples kept, at least 1 */
    public RecentCpuSamples(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.ring = new long[capacity];
    }

    /** A ring that holds {@link #SPAN} of samples taken every {@code samplingInterval} (at most 3000). */
    public static RecentCpuSamples covering(Duration samplingInterval) {
        long n = SPAN.toNanos() / Math.max(1, samplingInterval.toNanos());
        return new RecentCpuSamples((int) Math.max(1, Math.min(MAX_CAPACITY, n)));
    }

    @Override
    public void onSample(long nanoTime, long cpuTimeNanos, double percent) {
        if (Double.isNaN(percent)) {
            return; // the first reading has no interval behind it
        }
        long n = count;
        if (n == 0) {
            originNanos = nanoTime;
        }
        long millis = Math.max(0, (nanoTime - originNanos) / 1_000_000);
        long hundredths = Math.round(Math.max(0, Math.min(100, percent)) * 100);
        ring[(int) (n % ring.length)] = millis << PERCENT_BITS | hundredths;
        count = n + 1;
    }

    /** Samples kept, at most the capacity. */
    public int capacity() {
        return ring.length;
    }

    /** The samples kept, oldest first: each a ticker time ({@link Ticker#nanoTime()}) and a CPU% (0.01 resolution). */
    public List<Sample> snapshot() {
        long n = count;
        int size = (int) Math.min(n, ring.length);
        List<Sample> out = new ArrayList<>(size);
        long origin = originNanos;
        long lastMillis = -1;
        for (long i = n - size; i < n; i++) {
            long packed = ring[(int) (i % ring.length)];
            long millis = packed >>> PERCENT_BITS;
            if (millis <= lastMillis) {
                // Overwritten while read: newer than what follows it. Everything before it was older, so drop those.
                out.clear();
            }
            lastMillis = millis;
            out.add(new Sample(origin + millis * 1_000_000, (packed & PERCENT_MASK) / 100.0));
        }
        return out;
    }

    /**
     * One sample.
     *
     * @param nanoTime the ticker's reading at the sample (millisecond resolution)
     * @param percent CPU% over the interval that ended then, 0..100
     */
    public record Sample(long nanoTime, double percent) {
    }
}
