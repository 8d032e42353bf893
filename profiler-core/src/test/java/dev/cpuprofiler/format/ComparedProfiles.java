package dev.cpuprofiler.format;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.compare.ProfileComparator;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A reference of normal and two profiles compared with it, built stack by stack at 10 ms a sample, so every figure of
 * a comparison is known: the reference 10 s long, the profiles 30 s (its stacks weigh 3x per second of theirs).
 *
 * <pre>
 * reference  GET /orbit  150 req, Run;Orbit.step 450 | GET /ledger 200 req, Run;Ledger.sum 400 | no request: Run;Poller.poll 100, Run;Warmup.once 50
 * cost       GET /orbit  450 req, Run;Orbit.step 1350 | GET /ledger 600 req, Run;Ledger.sum 2400 + Run;Ledger.sum;Ledger.audit 9600 | Run;Poller.poll 150
 * traffic    GET /orbit 3600 req, Run;Orbit.step 10800 | GET /ledger 600 req, Run;Ledger.sum 1200 | Run;Poller.poll 300
 * </pre>
 *
 * The cost profile: each /ledger request costs 10x (20 → 200 ms) at the same rate, /orbit unchanged; the traffic
 * profile: 8x the /orbit requests (15 → 120 a second) at 30 ms each, /ledger unchanged.
 */
final class ComparedProfiles {

    static final String RUN = "java.lang.Thread.run";
    static final String ORBIT = "com.acme.Orbit.step";
    static final String LEDGER = "com.acme.Ledger.sum";
    static final String AUDIT = "com.acme.Ledger.audit";
    static final String POLLER = "com.acme.Poller.poll";
    static final String WARMUP = "com.acme.Warmup.once";

    static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

    private ComparedProfiles() {
    }

    static Profile reference() {
        Builder b = new Builder();
        b.add("GET /orbit", 450, RUN, ORBIT).add("GET /ledger", 400, RUN, LEDGER).add(null, 100, RUN, POLLER)
                .add(null, 50, RUN, WARMUP);
        return b.profile("ref", SessionTrigger.REFERENCE, START, 10, 150, 200);
    }

    /** Each /ledger request costs 10x, in a method the reference never ran; compared with {@link #reference()}. */
    static Profile cost() {
        Builder b = new Builder();
        b.add("GET /orbit", 1350, RUN, ORBIT).add("GET /ledger", 2400, RUN, LEDGER)
                .add("GET /ledger", 9600, RUN, LEDGER, AUDIT).add(null, 150, RUN, POLLER);
        return compared(b.profile("cost", SessionTrigger.CPU, START.plusSeconds(3600), 30, 450, 600));
    }

    /** 8x the /orbit requests at the same cost; compared with {@link #reference()}. */
    static Profile traffic() {
        Builder b = new Builder();
        b.add("GET /orbit", 10800, RUN, ORBIT).add("GET /ledger", 1200, RUN, LEDGER).add(null, 300, RUN, POLLER);
        return compared(b.profile("traffic", SessionTrigger.CPU, START.plusSeconds(7200), 30, 3600, 600));
    }

    private static Profile compared(Profile p) {
        return p.withComparison(ProfileComparator.compare(reference(), p));
    }

    /** The stacks of one profile, plain and under their endpoints. */
    private static final class Builder {

        private final StackTree tree = new StackTree(64, 100_000, false);
        private final StackTree byEndpoint = new StackTree(65, 100_000, false);
        private long orbit;
        private long ledger;
        private long none;

        /** {@code endpoint} null: outside any request. */
        Builder add(String endpoint, long weight, String... frames) {
            List<Frame> stack = java.util.Arrays.stream(frames).map(Frame::java).toList();
            tree.accept(stack, "worker-1", weight);
            List<Frame> grouped = new ArrayList<>();
            grouped.add(new Frame(endpoint == null ? "no request" : endpoint, FrameKind.ENDPOINT));
            grouped.addAll(stack);
            byEndpoint.accept(grouped, "worker-1", weight);
            if (endpoint == null) {
                none += weight;
            } else if (endpoint.equals("GET /orbit")) {
                orbit += weight;
            } else {
                ledger += weight;
            }
            return this;
        }

        Profile profile(String id, SessionTrigger trigger, Instant start, int seconds, long orbitRequests,
                long ledgerRequests) {
            long all = orbit + ledger + none;
            List<EndpointShare> endpoints = new ArrayList<>(List.of(
                    share("GET /orbit", orbit, all, orbitRequests), share("GET /ledger", ledger, all, ledgerRequests),
                    new EndpointShare("[no request]", none, 100.0 * none / all, null, null)));
            endpoints.sort((a, b) -> Long.compare(b.samples(), a.samples()));
            return ProfileBuilder.profile(id, trigger, tree.snapshot())
                    .engine(EngineChoice.JFR_EXECUTION, "jdk.ExecutionSample")
                    .between(start, start.plusSeconds(seconds))
                    .endpoints(endpoints, byEndpoint.snapshot()).build();
        }

        private static EndpointShare share(String endpoint, long samples, long all, long requests) {
            return new EndpointShare(endpoint, samples, 100.0 * samples / all, requests, samples * 10.0 / requests);
        }
    }
}
