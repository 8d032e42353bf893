package dev.cpuprofiler.internal.compare;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.Comparison;
import dev.cpuprofiler.Profile.Comparison.Change;
import dev.cpuprofiler.Profile.Comparison.EndpointChange;
import dev.cpuprofiler.Profile.Comparison.MethodChange;
import dev.cpuprofiler.Profile.Comparison.Verdict;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.internal.stack.HotMethods;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What changed between a reference and a profile: per endpoint, requests per second and CPU per request with a
 * verdict, and the methods whose self time grew. Figures are per second of each profile (rates) or per request and
 * per sample (costs, shares), so profiles of different lengths compare.
 *
 * <p>A figure <em>grew</em> when its ratio reaches {@link #GROWTH_FLOOR} and its logarithm is more than
 * {@link #NOISE_SIGMAS} standard errors above zero, the errors those of counts: requests and samples are counts of
 * events, so {@code ln(ratio)} of a rate has a standard error of {@code sqrt(1/n₁ + 1/n₂)} over the two request counts,
 * and a cost per request (samples ÷ requests) that of its four counts. The floor keeps what counting cannot see (the
 * JIT, GC, a cache warming) from calling a change: docs/what-changed.md gives the spread it was set against.
 */
public final class ProfileComparator {

    /** A rate or a cost per request has grown only when it is at least this many times the reference's. */
    public static final double GROWTH_FLOOR = 1.5;
    /** ... and its log-ratio exceeds this many standard errors of the counts behind it. */
    public static final double NOISE_SIGMAS = 3;
    /** How many methods a comparison lists. */
    public static final int METHODS = 10;

    private ProfileComparator() {
    }

    /** {@code profile} against {@code reference}. */
    public static Comparison compare(Profile reference, Profile profile) {
        double referenceSeconds = seconds(reference);
        double profileSeconds = seconds(profile);
        Map<String, EndpointShare> before = new HashMap<>();
        for (EndpointShare e : reference.requests().endpoints()) {
            before.put(e.endpoint(), e);
        }
        List<EndpointChange> endpoints = new ArrayList<>();
        for (EndpointShare now : profile.requests().endpoints()) {
            if (now.requests() == null || now.requests() <= 0) {
                continue; // [no request]: no rate, no cost per request; its code is in the methods
            }
            EndpointShare then = before.get(now.endpoint());
            endpoints.add(then == null || then.requests() == null || then.requests() <= 0
                    ? newEndpoint(now, profile, profileSeconds)
                    : change(then, reference, referenceSeconds, now, profile, profileSeconds));
        }
        return new Comparison(reference.id(), endpoints, methods(reference, profile));
    }

    private static EndpointChange newEndpoint(EndpointShare now, Profile profile, double seconds) {
        return new EndpointChange(now.endpoint(), new Change(null, round(now.requests() / seconds), null),
                new Change(null, round(costMillis(now.samples(), now.requests(), profile)), null), Verdict.NEW);
    }

    private static EndpointChange change(EndpointShare then, Profile reference, double referenceSeconds,
            EndpointShare now, Profile profile, double profileSeconds) {
        double rateThen = then.requests() / referenceSeconds;
        double rateNow = now.requests() / profileSeconds;
        double rateError = Math.sqrt(1.0 / then.requests() + 1.0 / now.requests());
        // An endpoint the reference never caught on CPU still cost something: half a sample, the least a count hides.
        double costThen = costMillis(Math.max(then.samples(), 0.5), then.requests(), reference);
        double costNow = costMillis(now.samples(), now.requests(), profile);
        double costError = Math.sqrt(rateError * rateError + 1.0 / Math.max(then.samples(), 0.5)
                + 1.0 / Math.max(now.samples(), 0.5));
        boolean moreTraffic = grew(rateNow / rateThen, rateError);
        boolean costlier = grew(costNow / costThen, costError);
        Verdict verdict = moreTraffic && costlier ? Verdict.BOTH : moreTraffic ? Verdict.TRAFFIC
                : costlier ? Verdict.COST : Verdict.UNCHANGED;
        return new EndpointChange(now.endpoint(),
                new Change(round(rateThen), round(rateNow), round(rateNow / rateThen)),
                new Change(round(costMillis(then.samples(), then.requests(), reference)), round(costNow),
                        round(costNow / costThen)), verdict);
    }

    static boolean grew(double ratio, double standardError) {
        return ratio >= GROWTH_FLOOR && Math.log(ratio) > NOISE_SIGMAS * standardError;
    }

    /** Self time by method in each, the largest growth first; only methods that grew. */
    private static List<MethodChange> methods(Profile reference, Profile profile) {
        Map<String, Double> before = new HashMap<>();
        for (HotMethods.Method m : HotMethods.of(reference.tree(), Integer.MAX_VALUE)) {
            before.put(m.method(), m.selfPercent());
        }
        List<MethodChange> grown = new ArrayList<>();
        for (HotMethods.Method m : HotMethods.of(profile.tree(), Integer.MAX_VALUE)) {
            double then = before.getOrDefault(m.method(), 0.0);
            double delta = round(m.selfPercent() - then);
            if (delta > 0) {
                grown.add(new MethodChange(m.method(), then, m.selfPercent(), delta));
            }
        }
        grown.sort(Comparator.comparingDouble(MethodChange::delta).reversed().thenComparing(MethodChange::method));
        return List.copyOf(grown.subList(0, Math.min(METHODS, grown.size())));
    }

    private static double costMillis(double samples, long requests, Profile profile) {
        return samples * profile.recording().samplingPeriod().toNanos() / 1e6 / requests;
    }

    private static double seconds(Profile profile) {
        return Math.max(profile.recording().duration().toNanos() / 1e9, 1e-3);
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
