package dev.cpuprofiler.internal.threads;

import java.util.Arrays;

/**
 * One thread's recent CPU-time reads, enough to tell its CPU% over any window up to the one it keeps: every read
 * inside that window plus the newest one at or before its start. A thread read every tick is averaged over a window
 * exactly; a thread that backed off (an idle one) has its two last reads further apart, and is averaged over that
 * longer span.
 */
final class ReadHistory {

    /** The longest window asked about: the tracker's, or the saturation trigger's. */
    private final long keepNanos;
    private long[] times = new long[4];
    private long[] cpus = new long[4];
    private int first;
    private int size;

    ReadHistory(long keepNanos) {
        this.keepNanos = keepNanos;
    }

    void add(long nanoTime, long cpuNanos) {
        if (first + size == times.length) {
            compact();
        }
        times[first + size] = nanoTime;
        cpus[first + size] = cpuNanos;
        size++;
        // Drop the oldest read while the one after it is still old enough to anchor the window.
        long windowStart = nanoTime - keepNanos;
        while (size > 2 && times[first + 1] <= windowStart) {
            first++;
            size--;
        }
    }

    private void compact() {
        if (first > 0) {
            System.arraycopy(times, first, times, 0, size);
            System.arraycopy(cpus, first, cpus, 0, size);
            first = 0;
        }
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            cpus = Arrays.copyOf(cpus, size * 2);
        }
    }

    int size() {
        return size;
    }

    long lastCpu() {
        return cpus[first + size - 1];
    }

    long lastTime() {
        return times[first + size - 1];
    }

    /**
     * CPU used in the window of {@code windowNanos} that ends at {@code end} (0: at the newest read; otherwise at or
     * after it, nothing counted after the newest read): from the newest read at or before the window's start (or the
     * oldest kept), to the newest. 0 with fewer than two reads.
     */
    long cpuIn(long windowNanos, long end) {
        return size < 2 ? 0 : Math.max(0, lastCpu() - cpus[anchor(windowNanos, end)]);
    }

    /** The wall time {@link #cpuIn} is spread over: from that anchor read to the window's end. */
    long spanOf(long windowNanos, long end) {
        return size < 2 ? 0 : Math.max(0, (end == 0 ? lastTime() : end) - times[anchor(windowNanos, end)]);
    }

    /** Whether the reads reach back to the start of that window (a thread seen for less than it does not). */
    boolean covers(long windowNanos, long end) {
        return size >= 2 && times[anchor(windowNanos, end)] <= (end == 0 ? lastTime() : end) - windowNanos;
    }

    private int anchor(long windowNanos, long end) {
        long windowStart = (end == 0 ? lastTime() : end) - windowNanos;
        int anchor = first;
        for (int i = first + 1; i < first + size && times[i] <= windowStart; i++) {
            anchor = i;
        }
        return anchor;
    }
}
