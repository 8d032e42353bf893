package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.Profile.Latency.EndpointLatency;
import dev.cpuprofiler.Profile.Latency.Verdict;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.compare.ProfileComparator;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.requests.EndpointLatencies;
import dev.cpuprofiler.internal.requests.LatencyRule;
import dev.cpuprofiler.internal.requests.RequestLog;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import dev.cpuprofiler.internal.requests.WaitTally;
import dev.cpuprofiler.internal.stack.StackTree;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one session's samples become once its engine stopped: the profile's notes (why it ended early, what its tree
 * and its endpoints leave out), its endpoints, the profile itself, and what changed from the reference of normal in
 * force when it started. {@link ProfilingSession} records and stops; this assembles.
 *
 * @param planned how long the session was to record
 * @param engineId the engine recording, as the notes name it
 * @param lookback what was sampled before the session started, or null
 * @param focus the pinned thread a SATURATION session watches, or null
 * @param reference the reference of normal in force when it started, which its profile is compared with; or null
 * @param latency the latency trigger's settings, by which its endpoints are judged slow
 */
record ProfileAssembly(String id, SessionTrigger trigger, Instant startedAt, Duration planned, Duration samplingPeriod,
        StackTree tree, ProfilingSession.SessionRequests requests, String engineId, LookbackSnapshot lookback,
        ThreadFocus focus,
        Profile reference, CpuProfilerOptions.Latency latency) {

    private static final Logger log = LoggerFactory.getLogger(ProfileAssembly.class);
    /** How many traces a profile lists. */
    private static final int HOTTEST_TRACES = 10;

    /**
     * The profile of what the session recorded, compared with the reference it started with.
     *
     * @param endedAt when the engine was told to stop
     * @param cpu where the CPU went meanwhile
     * @param requestLog what requests reported while it recorded, the samples joined with it; null if none was kept
     * @param waits what its requests waited on (a LATENCY session), or null
     * @param result what the engine handed over
     * @param earlyStop why the engine had to stop before the planned end to keep what it recorded, or null
     * @param cutShort why the session was told to stop early (a shutdown), or null
     */
    Profile assemble(Instant endedAt, Profile.CpuUse cpu, RequestLog requestLog, WaitTally waits,
            EngineRecording.Result result, String earlyStop, String cutShort) {
        List<String> notes = new ArrayList<>(result.notes());
        if (earlyStop != null) {
            String why = "stopped after " + Duration.between(startedAt, endedAt).toSeconds() + " s of "
                    + planned.toSeconds() + " s to keep what was recorded: " + earlyStop;
            notes.add(0, why);
            log.warn("Profile {} {}", id, why);
        }
        if (cutShort != null) {
            notes.add(0, String.format(Locale.ROOT, "%s: recorded %.1f s of the %d s planned", cutShort,
                    Duration.between(startedAt, endedAt).toMillis() / 1000.0, planned.toSeconds()));
        }
        // Only what the tree cut: stacks the engine cut already have their own note.
        if (tree.samplesCutByLimits() > 0) {
            notes.add(tree.samplesCutByLimits() + " samples were cut to fit the tree's limits (max-stack-depth "
                    + tree.maxStackDepth() + ", max-tree-nodes " + tree.maxTreeNodes() + ")");
        }
        List<EndpointShare> endpoints = requests.tally().endpoints(tree.totalSamples(), samplingPeriod,
                requests.maxEndpoints());
        notes.addAll(endpointNotes(requestLog, endpoints));
        // A LATENCY profile says where its requests' time went; a reference keeps each endpoint's normal durations.
        EndpointLatencies latencies = requests.timeline().latencies();
        Profile.Latency latencyPart = latencies == null
                || trigger != SessionTrigger.LATENCY && trigger != SessionTrigger.REFERENCE ? null
                : latency(latencies.last(Duration.between(startedAt, endedAt)), endpoints, waits, reference,
                        cpu.percent(), latency);
        if (trigger == SessionTrigger.LATENCY && waits == null) {
            notes.add("no waits: JFR could not record them here; the verdicts weigh the CPU against the time left");
        }
        Profile.Recording recording = new Profile.Recording(EngineChoice.fromId(result.engineId()),
                result.engineDetail(), result.fallbacks(), notes, startedAt, endedAt, samplingPeriod,
                tree.totalSamples(), result.lostSamples(), result.jfrFile());
        Profile.Requests served = new Profile.Requests(endpoints, requests.tally().tree(),
                requests.tally().hottestTraces(samplingPeriod, HOTTEST_TRACES), requests.tally().spanTree());
        return compared(new Profile(id, trigger, recording, tree.snapshot(), cpu, served, lookback,
                focus == null ? null : focus.saturation(), null, latencyPart));
    }

    /** Says in the log what {@code profile} holds, once it is stored. */
    void logRecorded(Profile profile) {
        Profile.Recording recorded = profile.recording();
        if (trigger == SessionTrigger.REFERENCE) {
            log.info("Recorded a reference of normal, {}: {} samples by {} in {}, {}", id, recorded.samples(),
                    recorded.engine(), recorded.duration(), requestsSeen(profile));
        } else {
            log.info("Profile {} recorded: {} samples by {} ({}) in {}{}", id, recorded.samples(), recorded.engine(),
                    recorded.engineDetail(), recorded.duration(), lookback == null ? ""
                            : ", plus " + lookback.samples() + " look-back samples from the " + lookback.duration()
                                    + " before");
        }
    }

    /**
     * The profile with what changed from the reference it started with; as it is without one, or when the comparison
     * fails (a comparison never costs the profile).
     */
    private Profile compared(Profile profile) {
        if (reference == null) {
            return profile;
        }
        try {
            return profile.withComparison(ProfileComparator.compare(reference, profile));
        } catch (RuntimeException e) {
            log.warn("Profile {} could not be compared with the reference {}; it is kept without a comparison", id,
                    reference.id(), e);
            return profile;
        }
    }

    /** The requests a reference saw, in a few words. */
    private static String requestsSeen(Profile profile) {
        long requests = 0;
        int endpoints = 0;
        for (EndpointShare e : profile.requests().endpoints()) {
            if (e.requests() != null && e.requests() > 0) {
                requests += e.requests();
                endpoints++;
            }
        }
        return requests + " requests to " + endpoints + (endpoints == 1 ? " endpoint" : " endpoints");
    }

    /** What a reader of the endpoints must know: why there are none, or why they cover less than the profile. */
    private List<String> endpointNotes(RequestLog log, List<EndpointShare> endpoints) {
        List<String> notes = new ArrayList<>();
        if (!requests.timeline().isReported()) {
            notes.add("no endpoints: nothing reports requests to the profiler (the starter reports the application's "
                    + "Micrometer observations, and finds no ObservationRegistry here)");
            return notes;
        }
        if (requests.blind()) {
            notes.add("no endpoints: the application serves requests on virtual threads, and " + engineId
                    + " samples their carrier threads, so no sample can be joined with its request; jfr-execution "
                    + "or jfr-cpu-time (JDK 25) can");
            return notes;
        }
        if (log != null && log.dropped() > 0) {
            notes.add("endpoints cover the session only until its request log filled (" + RequestTimeline.MAX_EVENTS
                    + " events): " + log.dropped() + " later events were not kept, and the samples they would have "
                    + "named count under " + RequestLog.NO_REQUEST);
        }
        if (log != null && log.tracesLeftOut() > 0) {
            notes.add("hottestTraces and span labels leave out " + log.tracesLeftOut() + " traced requests: their "
                    + "ids are not lowercase hex (at most 32 digits, 16 for a span), as Brave and OpenTelemetry write "
                    + "them");
        }
        if (requests.tally().spansCut()) {
            notes.add("pprof and OTLP carry no span labels: keeping each traced request's stacks apart outgrew "
                    + "max-tree-nodes; their endpoint labels and hottestTraces are whole");
        }
        if (lookback != null && !endpoints.isEmpty()) {
            notes.add("endpoints count the session's samples only: requests are not recorded in the look-back");
        }
        return notes;
    }



    /**
     * A profile's {@link Profile.Latency}: each endpoint's durations while it recorded, its CPU and its recorded waits
     * per request, and a verdict. An endpoint is slow by the latency trigger's cut and fewest requests, with half its
     * share of slow requests: the trigger waits for a sustained majority, a profile explains any endpoint with a heavy
     * slow tail (a calm one has next to none); a slow one's verdict says what its time went to ({@link #verdict}): two
     * thirds or more CPU is {@code CPU}, a third or less {@code WAIT}, between them {@code BOTH}.
     *
     * @param windows each endpoint's durations over the session's span
     * @param endpoints the session's samples by endpoint, with their requests
     * @param waits the session's waits joined with requests, or null when it recorded none
     * @param reference the reference of normal in force, or null
     * @param processCpuPercent the process's CPU% while the session recorded, or null if unknown
     */
    static Profile.Latency latency(List<EndpointLatencies.Window> windows, List<EndpointShare> endpoints,
            WaitTally waits, Profile reference, Double processCpuPercent, CpuProfilerOptions.Latency options) {
        Map<String, EndpointShare> shares = new HashMap<>();
        endpoints.forEach(e -> shares.put(e.endpoint(), e));
        Map<String, EndpointShare> referenceShares = new HashMap<>();
        if (reference != null) {
            reference.requests().endpoints().forEach(e -> referenceShares.put(e.endpoint(), e));
        }
        LatencyRule rule = new LatencyRule(options);
        List<EndpointLatency> out = new ArrayList<>();
        for (EndpointLatencies.Window w : windows) {
            String name = w.endpoint();
            Optional<EndpointLatency> normal = reference == null || reference.latency() == null ? Optional.empty()
                    : reference.latency().endpoint(name);
            Double normalP95 = normal.map(EndpointLatency::p95Millis).orElse(null);
            long slow = w.slowerThan(rule.cutNanos(normalP95));
            EndpointShare share = shares.get(name);
            long requests = share != null && share.requests() != null && share.requests() > 0 ? share.requests()
                    : w.requests();
            Double cpu = share == null ? null : share.cpuPerRequestMillis();
            double waited = waits == null ? 0 : waits.waitedNanos(name) / 1e6 / requests;
            boolean isSlow = rule.slow(w, slow, 0.5);
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
