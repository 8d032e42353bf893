package dev.cpuprofiler.internal.requests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class EndpointLatenciesTest {

    private static final long MS = 1_000_000;
    private final AtomicLong now = new AtomicLong(1_000 * 5_000 * MS);
    private final EndpointLatencies latencies = new EndpointLatencies(Duration.ofSeconds(30),
            Duration.ofSeconds(30), Duration.ofSeconds(5), 3, now::get);

    private EndpointLatencies.Window only(List<EndpointLatencies.Window> windows, String endpoint) {
        return windows.stream().filter(w -> w.endpoint().equals(endpoint)).findFirst().orElseThrow();
    }

    @Test
    void percentilesAndSlowCountsAreWithinABucketOfTheTruth() {
        // 1..1000 ms, one request each: the 50th percentile is 500 ms, the 95th 950 ms, 800 of them over 200 ms.
        for (int ms = 1; ms <= 1000; ms++) {
            latencies.record("GET /a", ms * MS);
        }
        now.addAndGet(5_000 * MS);
        EndpointLatencies.Window w = only(latencies.window(), "GET /a");
        assertThat(w.requests()).isEqualTo(1000);
        assertThat(w.percentileMillis(0.5)).isCloseTo(500, within(50.0));
        assertThat(w.percentileMillis(0.95)).isCloseTo(950, within(95.0));
        // A bucket is 19% wide: the requests in the threshold's bucket count as not slower.
        assertThat(w.slowerThan(200 * MS)).isBetween(750L, 800L);
    }

    @Test
    void theWindowHoldsItsFullSlotsOnlyAndForgetsOlderOnes() {
        latencies.record("GET /a", 10 * MS);
        assertThat(latencies.window()).as("the current slot is not full yet").isEmpty();
        assertThat(latencies.last(Duration.ofSeconds(5))).as("but a session's span includes it").hasSize(1);
        now.addAndGet(5_000 * MS);
        assertThat(only(latencies.window(), "GET /a").requests()).isEqualTo(1);
        now.addAndGet(30_000 * MS);
        assertThat(latencies.window()).as("older than the window").isEmpty();
        // Its slot, reused, counts only what came after.
        latencies.record("GET /a", 10 * MS);
        now.addAndGet(5_000 * MS);
        assertThat(only(latencies.window(), "GET /a").requests()).isEqualTo(1);
    }

    @Test
    void atMostMaxEndpointsAreKept() {
        for (String e : List.of("GET /a", "GET /b", "GET /c", "GET /d")) {
            latencies.record(e, 10 * MS);
        }
        now.addAndGet(5_000 * MS);
        assertThat(latencies.window()).extracting(EndpointLatencies.Window::endpoint)
                .containsExactlyInAnyOrder("GET /a", "GET /b", "GET /c");
    }
}
