package dev.cpuprofiler.internal.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.Comparison;
import dev.cpuprofiler.Profile.Comparison.EndpointChange;
import dev.cpuprofiler.Profile.Comparison.Verdict;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The comparison on profiles built by hand: a 10-s reference of two endpoints against 30-s profiles where one of them
 * got more traffic, costlier requests, both, or nothing, so rates and costs are per second and per request.
 */
class ProfileComparatorTest {

    private static final String LEDGER = "com.acme.Ledger.sum";
    private static final String ORBIT = "com.acme.Orbit.step";

    /** Reference, 10 s at 10 ms: /orbit 15 req/s of 30 ms (450 samples), /ledger 20 req/s of 20 ms (400). */
    private static final Profile REFERENCE = profile("ref", 10, 150, 450, 200, 400, 0);

    @Test
    void eightTimesTheRequestsAtTheSameCostIsTraffic() {
        Comparison c = ProfileComparator.compare(REFERENCE, profile("p", 30, 8 * 450, 8 * 1350, 600, 1200, 0));
        EndpointChange orbit = endpoint(c, "GET /orbit");
        assertThat(orbit.verdict()).isEqualTo(Verdict.TRAFFIC);
        assertThat(orbit.requestsPerSecond().reference()).isEqualTo(15.0);
        assertThat(orbit.requestsPerSecond().profile()).isEqualTo(120.0);
        assertThat(orbit.requestsPerSecond().ratio()).isEqualTo(8.0);
        assertThat(orbit.cpuPerRequestMillis().reference()).isEqualTo(30.0);
        assertThat(orbit.cpuPerRequestMillis().ratio()).isCloseTo(1.0, within(1e-9));
        assertThat(endpoint(c, "GET /ledger").verdict()).isEqualTo(Verdict.UNCHANGED);
        assertThat(c.reference()).isEqualTo("ref");
    }

    @Test
    void tenTimesTheCostAtTheSameRateIsCostAndItsKernelLeadsTheMethods() {
        Comparison c = ProfileComparator.compare(REFERENCE, profile("p", 30, 450, 1350, 600, 12000, 0));
        EndpointChange ledger = endpoint(c, "GET /ledger");
        assertThat(ledger.verdict()).isEqualTo(Verdict.COST);
        assertThat(ledger.cpuPerRequestMillis().ratio()).isEqualTo(10.0);
        assertThat(ledger.requestsPerSecond().ratio()).isEqualTo(1.0);
        assertThat(endpoint(c, "GET /orbit").verdict()).isEqualTo(Verdict.UNCHANGED);
        assertThat(c.methods().get(0).method()).isEqualTo(LEDGER);
        assertThat(c.methods().get(0).delta()).isGreaterThan(40);
        assertThat(c.methods()).extracting(Comparison.MethodChange::delta).isSortedAccordingTo((a, b) -> b.compareTo(a))
                .allMatch(d -> d > 0);
    }

    @Test
    void moreRequestsEachCostingMoreIsBothAndAnEndpointTheReferenceNeverSawIsNew() {
        Comparison c = ProfileComparator.compare(REFERENCE, profile("p", 30, 4 * 450, 4 * 4 * 1350, 600, 1200, 300));
        assertThat(endpoint(c, "GET /orbit").verdict()).isEqualTo(Verdict.BOTH);
        EndpointChange fresh = endpoint(c, "GET /new");
        assertThat(fresh.verdict()).isEqualTo(Verdict.NEW);
        assertThat(fresh.requestsPerSecond().reference()).isNull();
        assertThat(fresh.requestsPerSecond().ratio()).isNull();
        assertThat(fresh.requestsPerSecond().profile()).isEqualTo(10.0);
    }

    @Test
    void aChangeWithinTheNoiseOfFewCountsIsUnchanged() {
        // 3 requests then, 6 now: twice the rate, but three requests tell nothing of a rate.
        Profile few = profile("few", 10, 3, 9, 200, 400, 0);
        Comparison c = ProfileComparator.compare(few, profile("p", 10, 6, 18, 200, 400, 0));
        assertThat(endpoint(c, "GET /orbit").requestsPerSecond().ratio()).isEqualTo(2.0);
        assertThat(endpoint(c, "GET /orbit").verdict()).isEqualTo(Verdict.UNCHANGED);
        // The same ratio over thousands of requests is traffic.
        assertThat(ProfileComparator.grew(2.0, Math.sqrt(1.0 / 3000 + 1.0 / 6000))).isTrue();
        assertThat(ProfileComparator.grew(1.3, 0)).as("below the floor").isFalse();
    }

    @Test
    void aFallIsNoGrowth() {
        Comparison c = ProfileComparator.compare(REFERENCE, profile("p", 30, 45, 135, 60, 120, 0));
        assertThat(c.endpoints()).extracting(EndpointChange::verdict).containsOnly(Verdict.UNCHANGED);
        assertThat(endpoint(c, "GET /orbit").requestsPerSecond().ratio()).isEqualTo(0.1);
    }

    private static EndpointChange endpoint(Comparison c, String name) {
        return c.endpoints().stream().filter(e -> e.endpoint().equals(name)).findFirst().orElseThrow();
    }

    /** A profile of {@code seconds} at 10 ms: two endpoints (requests, samples of their kernel), a new one maybe. */
    private static Profile profile(String id, int seconds, long orbitRequests, long orbitSamples, long ledgerRequests,
            long ledgerSamples, long newRequests) {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(List.of(Frame.java("Thread.run"), Frame.java(ORBIT)), "worker-1", orbitSamples);
        tree.accept(List.of(Frame.java("Thread.run"), Frame.java(LEDGER)), "worker-1", ledgerSamples);
        tree.accept(List.of(Frame.java("Thread.run"), Frame.java("com.acme.Poller.poll")), "poller", 100);
        List<EndpointShare> endpoints = new ArrayList<>();
        long all = orbitSamples + ledgerSamples + 100 + newRequests;
        endpoints.add(new EndpointShare("GET /orbit", orbitSamples, 100.0 * orbitSamples / all, orbitRequests, null));
        endpoints.add(new EndpointShare("GET /ledger", ledgerSamples, 100.0 * ledgerSamples / all, ledgerRequests,
                null));
        if (newRequests > 0) {
            tree.accept(List.of(Frame.java("Thread.run"), Frame.java("com.acme.New.thing")), "worker-1", newRequests);
            endpoints.add(new EndpointShare("GET /new", newRequests, 100.0 * newRequests / all, newRequests, null));
        }
        endpoints.add(new EndpointShare("[no request]", 100, 100.0 * 100 / all, null, null));
        return ProfileBuilder.profile(id, SessionTrigger.MANUAL, tree.snapshot())
                .between(Instant.EPOCH, Instant.EPOCH.plusSeconds(seconds)).endpoints(endpoints, null).build();
    }
}
