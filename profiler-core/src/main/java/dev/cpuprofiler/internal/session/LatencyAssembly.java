package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.Profile.Latency.EndpointLatency;
import dev.cpuprofiler.Profile.Latency.Verdict;
import dev.cpuprofiler.internal.requests.EndpointLatencies;
import dev.cpuprofiler.internal.requests.WaitTally;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A profile's {@link Profile.Latency}: each endpoint's durations while it recorded, its CPU and its recorded waits per
 * request, and a verdict. An endpoint is slow by the latency trigger's cut and fewest requests, with half its share of
 * slow requests: the trigger waits for a sustained majority, a profile explains any endpoint with a heavy slow tail
 * (a calm one has next to none); a slow one's verdict says what its time went to ({@link #verdict}): two thirds or more CPU is
 * {@code CPU}, a third or less {@code WAIT}, between them {@code BOTH}.
 */
final class LatencyAssembly {

    private LatencyAssembly() {
    }

    /**
     * @param windows each endpoint's durations over the session's span
     * @param endpoints the session's samples by endpoint, with their requests
     * @param waits the session's waits joined with requests, or null when it recorded none
     * @param reference the reference of normal in force, or null
     * @param processCpuPercent the process's CPU% while the session recorded, or null if unknown
     */
    static Profile.Latency of(List<EndpointLatencies.Window> windows, List<EndpointShare> endpoints, WaitTally waits,
            Profile reference, Double processCpuPercent, CpuProfilerOptions.Latency options) {
        Map<String, EndpointShare> shares = new HashMap<>();
        endpoints.forEach(e -> shares.put(e.endpoint(), e));
        Map<String, EndpointShare> referenceShares = new HashMap<>();
        if (reference != null) {
            reference.requests().endpoints().forEach(e -> referenceShares.put(e.endpoint(), e));
        }
        List<EndpointLatency> out = new ArrayList<>();
        for (EndpointLatencies.Window w : windows) {
            String name = w.endpoint();
            Optional<EndpointLatency> normal = reference == null || reference.latency() == null ? Optional.empty()
                    : reference.latency().endpoint(name);
            Double normalP95 = normal.map(EndpointLatency::p95Millis).orElse(null);
            long cut = Math.max(options.getThreshold().toNanos(),
                    normalP95 == null ? 0 : (long) (options.getNormalFactor() * normalP95 * 1e6));
            long slow = w.slowerThan(cut);
            EndpointShare share = shares.get(name);
            long requests = share != null && share.requests() != null && share.requests() > 0 ? share.requests()
                    : w.requests();
            Double cpu = share == null ? null : share.cpuPerRequestMillis();
            double waited = waits == null ? 0 : waits.waitedNanos(name) / 1e6 / requests;
            boolean isSlow = w.requests() >= options.getMinRequests() && slow > 0
                    && slow >= options.getSlowShare() / 2 * w.requests();
            EndpointShare normalShare = referenceShares.get(name);
            Verdict verdict = !isSlow ? Verdict.UNCHANGED : verdict(w.meanMillis(), cpu,
                    normalShare == null ? null : normalShare.cpuPerRequestMillis(), waited, processCpuPercent);
            List<Profile.Latency.Wait> listed = new ArrayList<>();
            if (waits != null) {
                for (WaitTally.Wait wait : waits.waits(name)) {
                    listed.add(new Profile.Latency.Wait(wait.kind(), wait.frame(), wait.nanos() / 1e6 / requests,
                            wait.stack()));
                }
            }
            out.add(new EndpointLatency(name, w.requests(), slow, w.percentileMillis(0.5), w.percentileMillis(0.95),
                    w.meanMillis(), normalP95, cpu, waited, verdict, listed));
        }
        out.sort(Comparator.comparingDouble(EndpointLatency::p95Millis).reversed());
        return new Profile.Latency(out);
    }

    /** At or above this CPU% of the effective CPUs, time neither on a CPU nor waiting was spent queueing for one. */
    static final double SATURATED_PERCENT = 85;

    /**
     * What a slow endpoint's time went to: its CPU per request (its growth over normal, where the reference knew it)
     * against its recorded waits. The rest of its mean duration, neither sampled on a CPU nor recorded waiting, was
     * spent runnable, queueing for a CPU, when the process's CPUs were saturated, and otherwise waiting where no event
     * sees it (a wait shorter than the threshold, a virtual thread's park).
     *
     * @param processCpuPercent the process's CPU% of its effective CPUs while it recorded, or null if unknown
     */
    static Verdict verdict(double meanMillis, Double cpuMillis, Double normalCpuMillis, double waitMillis,
            Double processCpuPercent) {
        if (cpuMillis == null) {
            return waitMillis >= meanMillis / 2 ? Verdict.WAIT : Verdict.BOTH;
        }
        double unexplained = Math.max(0, meanMillis - cpuMillis - waitMillis);
        boolean saturated = processCpuPercent != null && processCpuPercent >= SATURATED_PERCENT;
        double cpuSide = (normalCpuMillis == null ? cpuMillis : Math.max(0, cpuMillis - normalCpuMillis))
                + (saturated ? unexplained : 0);
        double waitSide = waitMillis + (saturated ? 0 : unexplained);
        double share = cpuSide + waitSide <= 0 ? 0 : cpuSide / (cpuSide + waitSide);
        return share >= 2.0 / 3 ? Verdict.CPU : share <= 1.0 / 3 ? Verdict.WAIT : Verdict.BOTH;
    }
}
