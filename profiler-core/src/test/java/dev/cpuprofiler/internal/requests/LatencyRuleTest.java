package dev.cpuprofiler.internal.requests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class LatencyRuleTest {

    private static final long MS = 1_000_000;
    private static final Function<String, OptionalDouble> NO_NORMAL = e -> OptionalDouble.empty();
    private final AtomicLong now = new AtomicLong(0);
    private final EndpointLatencies latencies = new EndpointLatencies(Duration.ofSeconds(30),
            Duration.ofSeconds(30), Duration.ofSeconds(5), 100, now::get);
    private final LatencyRule rule = new LatencyRule(new CpuProfilerOptions().getLatency());

    private void requests(String endpoint, int count, long millis) {
        for (int i = 0; i < count; i++) {
            latencies.record(endpoint, millis * MS);
        }
    }

    private List<EndpointLatencies.Window> window() {
        now.addAndGet(5_000 * MS);
        return latencies.window();
    }

    @Test
    void anEndpointWithMostOfItsRequestsOverTheThresholdIsSlowAndTheCalmOnesAreNot() {
        requests("GET /vault", 30, 600);
        requests("GET /vault", 10, 5);
        requests("GET /calm", 200, 5);
        LatencyRule.SlowEndpoint slow = rule.slowest(window(), NO_NORMAL).orElseThrow();
        assertThat(slow.endpoint()).isEqualTo("GET /vault");
        assertThat(slow.requests()).isEqualTo(40);
        assertThat(slow.slowRequests()).isEqualTo(30);
        assertThat(slow.cutMillis()).isEqualTo(200);
        assertThat(slow.p95Millis()).isBetween(540.0, 660.0);
    }

    @Test
    void tooFewRequestsOrTooSmallAShareIsNoIncident() {
        requests("GET /rare", 19, 900);
        requests("GET /mostly-fast", 30, 600);
        requests("GET /mostly-fast", 40, 5);
        assertThat(rule.slowest(window(), NO_NORMAL)).isEmpty();
    }

    @Test
    void anEndpointAlwaysThatSlowIsNoIncidentWhereTheReferenceKnowsIt() {
        requests("GET /report", 50, 600);
        List<EndpointLatencies.Window> w = window();
        assertThat(rule.slowest(w, e -> OptionalDouble.of(550))).as("its normal 95th percentile is 550 ms").isEmpty();
        assertThat(rule.slowest(w, e -> OptionalDouble.of(50))).as("its normal is 50 ms").isPresent();
        assertThat(rule.slowest(w, e -> OptionalDouble.of(50)).orElseThrow().normalP95Millis()).isEqualTo(50.0);
    }
}
