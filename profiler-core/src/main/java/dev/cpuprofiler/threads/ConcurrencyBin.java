package dev.cpuprofiler.threads;

/**
 * One bar of the concurrency histogram.
 *
 * @param threads k, how many threads were running at once
 * @param seconds how long exactly k threads were running (estimated)
 */
public record ConcurrencyBin(int threads, double seconds) {
}
