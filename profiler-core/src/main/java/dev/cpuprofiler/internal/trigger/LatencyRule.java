package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.requests.EndpointLatencies;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * Whether an endpoint's requests turned slow ({@code profiler.latency.*}): over the window, at least
 * {@code min-requests} ended and at least {@code slow-share} of them took longer than the cut, which is
 * {@code threshold}, or {@code normal-factor} times the endpoint's 95th percentile in the reference of normal when
 * that is longer, so that an endpoint that is always slow is no incident. Of several, the one with the largest share
 * of slow requests. No state, no clock.
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
            if (w.requests() < minRequests) {
                continue;
            }
            OptionalDouble normal = normalP95Millis.apply(w.endpoint());
            long cut = Math.max(thresholdNanos, normal.isPresent() ? (long) (normalFactor * normal.getAsDouble() * 1e6)
                    : 0);
            long slow = w.slowerThan(cut);
            if (slow >= slowShare * w.requests() && slow > 0) {
                SlowEndpoint e = new SlowEndpoint(w.endpoint(), w.requests(), slow, w.percentileMillis(0.95),
                        cut / 1e6, normal.isPresent() ? normal.getAsDouble() : null);
                if (slowest == null || e.slowShare() > slowest.slowShare()) {
                    slowest = e;
                }
            }
        }
        return Optional.ofNullable(slowest);
    }
}
