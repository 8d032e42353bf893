package dev.cpuprofiler.benchmarks.whatchanged;

import dev.cpuprofiler.fixtures.OpenLoopLoad;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * "What changed", proven from outside on {@link OrbitLedgerApplication}: open-loop load at fixed rates on both
 * endpoints until the profiler has recorded its reference of normal by itself; then (a) {@code /orbit}'s rate times
 * {@link Settings#trafficFactor} at the same cost, one on-demand profile; (b) back to the calm rates and
 * {@code /ledger}'s cost times {@link Settings#costFactor} at the same rate, another. Optionally calm profiles (no
 * change at all) right after the reference and at the end, whose ratios are the noise floor. Each profile is read as
 * an {@link Observation}; {@link WhatChangedChecks} judges them. One run is one application, both phases in it.
 *
 * <p>Why these rates and costs ({@link Settings#standard}):
 * <ul>
 * <li>The reference's counts bound how well any ratio is known, and the busiest phase bounds them. Calm,
 * {@code /orbit} burns 10/s × 10 ms = 100 ms of CPU a second and {@code /ledger} 8/s × 10 ms = 80 ms: a 10-s
 * reference holds about 100 and 80 samples at the 10-ms period, and as many requests. Phase (a) is then 8 × 100 + 80
 * = 880 ms a second and phase (b) 100 + 10 × 80 = 900 ms: with the requests' own overhead and the load client, about
 * half of a 2-CPU machine, so that the application keeps up with its load even next to another busy process (an
 * application that falls behind answers later than it is asked, and its rates in a profile are no longer the load's).
 * </li>
 * <li>A sample falls every 10 ms of CPU, so a request of 10 ms gets one sample, give or take one by where it starts:
 * the counts are steadier than counting noise (a Poisson count of 100 would be ±10%), which is what lets ratios be
 * judged within 20% from a 10-s reference.</li>
 * <li>Kernels of 10 ms, not 1: the request's own path (Tomcat, Spring MVC, the observation, about 0.3 ms compiled)
 * costs more per request while it is colder, and more at a low rate than at a high one; against 10 ms of kernel that
 * moves a cost ratio by a few percent, not by tens.</li>
 * <li>Before the calm load, {@link Settings#warmUp} of both endpoints at {@code cost=0} (the path without the kernel)
 * at {@link Settings#warmUpPerSecond}: a few thousand requests get the path compiled, so the reference, recorded as
 * soon as the start-up grace is over, is not the cost of code still being interpreted. The grace ends a few seconds
 * after the warm-up, when none of its requests is in flight.</li>
 * </ul>
 */
final class WhatChangedScenario {

    /**
     * @param orbitPerSecond calm rate of {@code GET /orbit} (cost 1)
     * @param ledgerPerSecond calm rate of {@code GET /ledger?cost=1}
     * @param trafficFactor phase (a): {@code /orbit}'s rate times this
     * @param costFactor phase (b): {@code /ledger}'s cost times this
     * @param warmUpPerSecond the rate of each endpoint at {@code cost=0} while the request path warms up
     * @param warmUp how long it warms up, from the application's start
     * @param startupGrace {@code profiler.cpu.startup-grace}: the warm-up and a few seconds more
     * @param reference {@code profiler.cpu.reference.duration}
     * @param profile each on-demand profile's duration
     * @param settle the wait after a change of rate or cost before the profile starts (the requests in flight end)
     * @param calmProfiles calm profiles besides the phases: one right after the reference, the others at the end
     */
    record Settings(double orbitPerSecond, double ledgerPerSecond, int trafficFactor, int costFactor,
            double warmUpPerSecond, Duration warmUp, Duration startupGrace, Duration reference, Duration profile,
            Duration settle, int calmProfiles) {

        /** The scenario: both phases, no calm profile (the test in {@code mvn verify}). */
        static Settings standard() {
            return new Settings(10, 8, 8, 10, 100, Duration.ofSeconds(8), Duration.ofSeconds(12),
                    Duration.ofSeconds(10), Duration.ofSeconds(10), Duration.ofSeconds(1), 0);
        }

        Settings withCalmProfiles(int n) {
            return new Settings(orbitPerSecond, ledgerPerSecond, trafficFactor, costFactor, warmUpPerSecond, warmUp,
                    startupGrace, reference, profile, settle, n);
        }
    }

    /**
     * What one run saw.
     *
     * @param reference the status's {@code reference} ({@code {id, recordedAt, samples}})
     * @param calm the calm profiles, in order
     */
    record Outcome(JsonNode reference, List<Observation> calm, Observation traffic, Observation cost) {

        String referenceId() {
            return reference.get("id").asString();
        }
    }

    /**
     * The warm-up's requests in flight at most: the first ones, on a cold application, take long, and an open loop
     * would pile them up until the server had a thread for each (Tomcat grows to 200); the calm load would then
     * rotate among all those threads, each running a request every few seconds, which is not how a warm application
     * runs, and which jfr-cpu-time undercounts (a thread's CPU timer is checked at the scheduler's tick, so a thread
     * that runs in rare 10-ms bursts loses about half its samples: measured 52% with 200 threads, 91% with 10).
     */
    static final int WARM_UP_IN_FLIGHT = 4;

    /** How many times a profile is recorded at most while the load or the application could not keep the plan. */
    static final int ATTEMPTS = 3;
    /**
     * Requests in flight under which the load has settled after a change: at the plan's busiest (80/s of 10 ms, or
     * 8/s of 100 ms) about one is; a backlog is many.
     */
    static final int SETTLED_IN_FLIGHT = 8;
    /** The longest wait for a backlog to drain before a profile starts anyway (and, if it was not, is no fair test). */
    static final Duration DRAIN = Duration.ofSeconds(20);

    /** The load's rates may differ from the plan by this much in a profile's window before it is no fair test. */
    static final double RATE_SLACK = 0.05;

    private final Settings settings;

    WhatChangedScenario(Settings settings) {
        this.settings = settings;
    }

    Settings settings() {
        return settings;
    }

    /**
     * Runs it against the application at {@code base}, which must have just started with {@link Settings#reference}
     * and {@link Settings#startupGrace} ({@link OrbitLedgerProcess} starts it so).
     */
    Outcome run(URI base) throws IOException, InterruptedException {
        ProfilerClient profiler = new ProfilerClient(base);
        Load calm = new Load(settings.orbitPerSecond(), 1, settings.ledgerPerSecond(), 1);
        try (OpenLoopLoad warmUp = new OpenLoopLoad(WARM_UP_IN_FLIGHT)) {
            new Load(settings.warmUpPerSecond(), 0, settings.warmUpPerSecond(), 0).apply(warmUp, base);
            Thread.sleep(settings.warmUp().toMillis());
        }
        try (OpenLoopLoad load = new OpenLoopLoad()) {
            calm.apply(load, base);
            // The first baseline (30 s), calm for a whole average window (30 s), then the reference: 60 s to spare.
            JsonNode reference = profiler.awaitReference(settings.startupGrace().plus(settings.reference())
                    .plusSeconds(120));
            System.out.println("[what-changed] reference " + reference);
            List<Observation> calmProfiles = new ArrayList<>();
            if (settings.calmProfiles() > 0) {
                calmProfiles.add(observe("calm", calm, profiler, load, base));
            }
            Observation a = observe("traffic", new Load(settings.orbitPerSecond() * settings.trafficFactor(), 1,
                    settings.ledgerPerSecond(), 1), profiler, load, base);
            Observation b = observe("cost", new Load(settings.orbitPerSecond(), 1, settings.ledgerPerSecond(),
                    settings.costFactor()), profiler, load, base);
            for (int i = 1; i < settings.calmProfiles(); i++) {
                calmProfiles.add(observe("calm", calm, profiler, load, base));
            }
            return new Outcome(reference, calmProfiles, a, b);
        }
    }

    /** What the load sends: each endpoint's rate and cost. */
    private record Load(double orbitPerSecond, int orbitCost, double ledgerPerSecond, int ledgerCost) {

        double perSecond(Endpoint e) {
            return e == Endpoint.ORBIT ? orbitPerSecond : ledgerPerSecond;
        }

        void apply(OpenLoopLoad load, URI base) {
            load.send(Endpoint.ORBIT.key, base.resolve(Endpoint.ORBIT.path + "?cost=" + orbitCost), orbitPerSecond);
            load.send(Endpoint.LEDGER.key, base.resolve(Endpoint.LEDGER.path + "?cost=" + ledgerCost),
                    ledgerPerSecond);
        }
    }

    /**
     * Sets the load and records one profile, again (at most {@link #ATTEMPTS} in all) when it was no fair test: the
     * load did not keep its rates, or the application did not keep up with it (a machine that stalls for seconds,
     * which a shared virtual machine does, leaves a backlog that drains into the profile's window and doubles a rate).
     * What the comparison says is never a reason to try again.
     */
    private Observation observe(String label, Load plan, ProfilerClient profiler, OpenLoopLoad load, URI base)
            throws IOException, InterruptedException {
        plan.apply(load, base);
        List<String> unfair = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            Observation o = observeOnce(label, plan, profiler, load, unfair);
            if (o.problems().isEmpty() || attempt == ATTEMPTS) {
                return o;
            }
            unfair.addAll(o.problems());
        }
    }

    private Observation observeOnce(String label, Load plan, ProfilerClient profiler, OpenLoopLoad load,
            List<String> unfair) throws IOException, InterruptedException {
        Thread.sleep(settings.settle().toMillis());
        long drained = System.nanoTime() + DRAIN.toNanos();
        while (load.inFlight() > SETTLED_IN_FLIGHT && System.nanoTime() < drained) {
            Thread.sleep(100);
        }
        JsonNode tally0 = profiler.tally();
        Map<Endpoint, OpenLoopLoad.Counts> sent0 = counts(load);
        String id = profiler.start(settings.profile(), Duration.ofSeconds(60));
        Thread.sleep(settings.profile().toMillis());
        JsonNode tally1 = profiler.tally();
        Map<Endpoint, OpenLoopLoad.Counts> sent1 = counts(load);
        JsonNode profile = profiler.awaitProfile(id, settings.profile().plusSeconds(60));

        JsonNode comparison = profile.get("comparison");
        boolean compared = comparison != null && !comparison.isNull();
        Map<Endpoint, Observation.Figures> figures = new EnumMap<>(Endpoint.class);
        List<String> problems = new ArrayList<>();
        for (Endpoint e : Endpoint.values()) {
            OpenLoopLoad.Counts w = sent1.get(e).minus(sent0.get(e));
            double planned = plan.perSecond(e);
            if (Math.abs(w.sentPerSecond() / planned - 1) > RATE_SLACK || w.dropped() > 0 || w.failed() > 0) {
                problems.add(label + ": the load did not keep " + e.path + " at " + planned + "/s: " + w);
            } else if (Math.abs(w.answered() - w.sent()) > Math.max(2, RATE_SLACK * w.sent())) {
                problems.add(label + ": the application did not keep up with " + e.path + " (a backlog built up or "
                        + "drained): " + w);
            }
            long requests = tally1.get(e.key).get("requests").asLong() - tally0.get(e.key).get("requests").asLong();
            long nanos = tally1.get(e.key).get("cpuNanos").asLong() - tally0.get(e.key).get("cpuNanos").asLong();
            JsonNode change = compared ? change(comparison, e) : null;
            figures.put(e, new Observation.Figures(
                    change == null ? null : change.get("verdict").asString(),
                    number(change, "requestsPerSecond", "ratio"), number(change, "cpuPerRequestMillis", "ratio"),
                    number(change, "cpuPerRequestMillis", "profile"), w.sentPerSecond(),
                    requests == 0 ? Double.NaN : nanos / 1e6 / requests));
        }
        JsonNode methods = compared ? comparison.get("methods") : null;
        Observation o = new Observation(label, id, profile.path("engine").asString(null),
                compared ? comparison.get("reference").asString() : null, figures,
                methods != null && !methods.isEmpty() ? methods.get(0).get("method").asString() : null, problems,
                List.copyOf(unfair));
        System.out.println("[what-changed] " + o);
        return o;
    }

    private static Map<Endpoint, OpenLoopLoad.Counts> counts(OpenLoopLoad load) {
        Map<Endpoint, OpenLoopLoad.Counts> counts = new EnumMap<>(Endpoint.class);
        for (Endpoint e : Endpoint.values()) {
            counts.put(e, load.counts(e.key));
        }
        return counts;
    }

    /** The comparison's entry for an endpoint, or null. */
    private static JsonNode change(JsonNode comparison, Endpoint e) {
        for (JsonNode c : comparison.path("endpoints")) {
            if (e.profileName.equals(c.path("endpoint").asString(null))) {
                return c;
            }
        }
        return null;
    }

    private static Double number(JsonNode change, String figure, String field) {
        JsonNode n = change == null ? null : change.path(figure).get(field);
        return n == null || !n.isNumber() ? null : n.asDouble();
    }
}
