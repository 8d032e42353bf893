package dev.cpuprofiler.internal.requests;

import dev.cpuprofiler.CpuProfilerOptions;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * Whether an endpoint's requests turned slow ({@code profiler.latency.*}): over the window, at least
 * {@code min-requests} ended and at least {@code slow-share} of them took longer than the cut, which is
 * {@code threshold}, or {@code normal-factor} times the endpoint's 95th percentile in the reference of normal when
 * that is longer, so that an endpoint that is always slow is no incident. Of several, the one with the largest share
 * of slow requests. No state, no clock. A profile's endpoints are judged by the same cut ({@link #slow}).
 */
public final class LatencyRule {

    private final long thresholdNanos;
    private final double slowShare;
    private final int minRequests;
    private final double normalFactor;

    public LatencyRule(CpuProfilerOptions.Latency options) {
        this.thresholdNanos = options.getThreshold().toNanos();
        this.slowShare = options.getSlowShare();
        this.minRequests = options.getMinRequests();
        this.normalFactor = options.getNormalFactor();
    }

    /**
     * An endpoint whose requests turned slow.
     *
     * @param slowRequests those of {@code requests} longer than {@code cutMillis}
     * @param normalP95Millis its 95th percentile in the reference of normal, or null where that does not know it
     */
    public record SlowEndpoint(String endpoint, long requests, long slowRequests, double p95Millis, double cutMillis,
            Double normalP95Millis) {

        public double slowShare() {
            return (double) slowRequests / requests;
        }
    }

    /**
     * The slowest endpoint over these windows by the rule, if any.
     *
     * @param normalP95Millis an endpoint's 95th percentile in the reference of normal, empty where unknown
     */
    public Optional<SlowEndpoint> slowest(List<EndpointLatencies.Window> windows,
            Function<String, OptionalDouble> normalP95Millis) {
        SlowEndpoint slowest = null;
        for (EndpointLatencies.Window w : windows) {
            OptionalDouble normal = normalP95Millis.apply(w.endpoint());
            long cut = cutNanos(normal.isPresent() ? normal.getAsDouble() : null);
            long slow = w.slowerThan(cut);
            if (slow(w, slow, 1)) {
                SlowEndpoint e = new SlowEndpoint(w.endpoint(), w.requests(), slow, w.percentileMillis(0.95),
                        cut / 1e6, normal.isPresent() ? normal.getAsDouble() : null);
                if (slowest == null || e.slowShare() > slowest.slowShare()) {
                    slowest = e;
                }
            }
        }
        return Optional.ofNullable(slowest);
    }

    /** How long a request must take to be slow: the threshold, or normal-factor times the normal p95 if longer. */
    public long cutNanos(Double normalP95Millis) {
        return Math.max(thresholdNanos, normalP95Millis == null ? 0 : (long) (normalFactor * normalP95Millis * 1e6));
    }

    /**
     * Whether an endpoint with {@code slowRequests} of its window's requests over the cut is slow: enough requests,
     * and at least {@code shareFactor} times slow-share of them slow (1 for the trigger).
     */
    public boolean slow(EndpointLatencies.Window w, long slowRequests, double shareFactor) {
        return w.requests() >= minRequests && slowRequests > 0
                && slowRequests >= shareFactor * slowShare * w.requests();
    }
}
