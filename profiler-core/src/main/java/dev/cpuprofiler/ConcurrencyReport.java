package dev.cpuprofiler;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How many threads ran at once during a profile, and what that says.
 *
 * @param duration T, the time covered
 * @param tick the sampling tick the deltas were taken at
 * @param effectiveCpus the CPU count utilization is relative to
 * @param histogram t(k) for k = 0, 1, ... up to the highest k seen: time with exactly k threads running
 * @param averageRunning Σ k·t(k) / T, the mean number of threads running (exact from the deltas, not a model)
 * @param utilization the "heater" ratio Σ k·t(k) / (T × effective CPUs), 0..1: how much of the CPUs the threads
 *        used, what CPU% says
 * @param bottleneck the "anti-ratio", time with at least one thread running / T, 0..1 (estimated): near 1 means
 *        something was always running, so work waiting for the CPU was there all along even if CPU% looks low
 * @param bottleneckLow the lowest bottleneck consistent with the per-tick deltas
 * @param bottleneckHigh the highest bottleneck consistent with the per-tick deltas
 * @param threads each thread that used CPU during the profile, most first: CPU time, % of one core over the part of
 *        the profile it was seen alive, and its label
 * @param threadsSeen how many threads were watched
 */
public record ConcurrencyReport(Duration duration, Duration tick, double effectiveCpus,
        List<Bin> histogram, double averageRunning, double utilization, double bottleneck,
        double bottleneckLow, double bottleneckHigh, List<ThreadCpu> threads, int threadsSeen) {

    public ConcurrencyReport {
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(tick, "tick");
        histogram = List.copyOf(histogram);
        threads = List.copyOf(threads);
    }

    /**
     * One bar of the concurrency histogram.
     *
     * @param threads k, how many threads were running at once
     * @param seconds how long exactly k threads were running (estimated)
     */
    public record Bin(int threads, double seconds) {
    }
}
