package dev.cpuprofiler.internal.threads;

import java.util.Arrays;

/**
 * One thread's recent CPU-time reads, enough to tell its CPU% over a window: every read inside the window plus
 * the newest one at or before its start. A thread read every tick is averaged over the window exactly; a thread
 * that backed off (an idle one) has its two last reads further apart, and is averaged over that longer span.
 */
final class ReadHistory {

    private final long windowNanos;
    private long[] times = new long[4];
    private long[] cpus = new long[4];
    private int first;
    private int size;

    ReadHistory(long windowNanos) {
        this.windowNanos = windowNanos;
    }

    void add(long nanoTime, long cpuNanos) {
        if (first + size == times.length) {
            compact();
        }
        times[first + size] = nanoTime;
        cpus[first + size] = cpuNanos;
        size++;
        // Drop the oldest read while the one after it is still old enough to anchor the window.
        long windowStart = nanoTime - windowNanos;
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

    /** CPU used between the oldest kept read and the newest; 0 with fewer than two reads. */
    long cpuInSpan() {
        return size < 2 ? 0 : Math.max(0, lastCpu() - cpus[first]);
    }

    /**
     * CPU used in the window that ends at {@code now} (at or after the newest read), counting nothing after the newest
     * read: from the newest read at or before the window's start (or the oldest kept), to the newest.
     */
    long cpuInWindowUntil(long now) {
        return size < 2 ? 0 : Math.max(0, lastCpu() - cpus[anchorFor(now)]);
    }

    /** The wall time {@link #cpuInWindowUntil} is spread over: from that anchor read to {@code now}. */
    long spanUntil(long now) {
        return size < 2 ? 0 : Math.max(0, now - times[anchorFor(now)]);
    }

    private int anchorFor(long now) {
        long windowStart = now - windowNanos;
        int anchor = first;
        for (int i = first + 1; i < first + size && times[i] <= windowStart; i++) {
            anchor = i;
        }
        return anchor;
    }

    /** Wall time between the oldest kept read and the newest; 0 with fewer than two reads. */
    long span() {
        return size < 2 ? 0 : lastTime() - times[first];
    }
}
