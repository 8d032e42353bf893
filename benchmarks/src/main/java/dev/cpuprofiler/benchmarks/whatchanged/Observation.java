package dev.cpuprofiler.benchmarks.whatchanged;

import java.util.List;
import java.util.Map;

/**
 * One profile of the scenario as the checks read it: what its {@code comparison} says of each endpoint and which method
 * grew most, next to what the load sent and what the application measured while it recorded.
 *
 * @param label what the scenario did then ({@code calm}, {@code traffic}, {@code cost})
 * @param comparedWith {@code comparison.reference}, or null when the profile carries no comparison
 * @param firstMethod {@code comparison.methods[0].method}, or null when none grew
 * @param problems what kept this profile from being a fair test (the load not at its rates, failed requests, the
 *     application not keeping up); empty when it was one
 * @param retried why earlier profiles of the same step were no fair test and recorded again (empty: the first was)
 */
record Observation(String label, String profileId, String engine, String comparedWith,
        Map<Endpoint, Figures> endpoints, String firstMethod, List<String> problems, List<String> retried) {

    /**
     * One endpoint in one profile.
     *
     * @param verdict {@code comparison.endpoints[].verdict}, or null when the comparison does not list it
     * @param rateRatio {@code requestsPerSecond.ratio} (null when absent)
     * @param costRatio {@code cpuPerRequestMillis.ratio} (null when absent)
     * @param costMillis {@code cpuPerRequestMillis.profile}: the profiler's CPU per request (null when absent)
     * @param sentPerSecond what the load sent while the profile recorded
     * @param measuredCostMillis the kernel CPU per request the application measured meanwhile (its truth)
     */
    record Figures(String verdict, Double rateRatio, Double costRatio, Double costMillis, double sentPerSecond,
            double measuredCostMillis) {
    }

    Figures of(Endpoint e) {
        return endpoints.get(e);
    }
}
