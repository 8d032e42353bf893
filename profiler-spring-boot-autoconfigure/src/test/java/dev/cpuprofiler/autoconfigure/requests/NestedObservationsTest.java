package dev.cpuprofiler.autoconfigure.requests;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.autoconfigure.CpuProfilerObservationHandler;
import dev.cpuprofiler.internal.requests.RequestLog;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The observation handler with Micrometer's own registry, each request observed as Spring Security observes it: the
 * server request's scope, and inside it, on the same thread, the filter chain's and each filter's, the
 * authentication's and the authorization's, about a dozen nested scopes. Only the outermost scope is logged, so a
 * session's log keeps every request; a nested scope on another thread still tells which request that thread serves.
 */
class NestedObservationsTest {

    private static final String[] FILTERS = {"DisableEncodeUrlFilter", "SecurityContextHolderFilter",
        "HeaderWriterFilter", "CsrfFilter", "LogoutFilter", "BasicAuthenticationFilter", "RequestCacheAwareFilter",
        "AnonymousAuthenticationFilter", "ExceptionTranslationFilter", "AuthorizationFilter"};

    @Test
    void springSecuritysNestedObservationsAddNoEventsSoTheLogKeepsEveryRequest() throws Exception {
        // Room for three events a request (its outermost scope opened and closed, its end), not for the two dozen
        // more its nested scopes would add.
        int requests = 1000;
        RequestTimeline timeline = new RequestTimeline(3 * (requests + 1), false, null);
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new CpuProfilerObservationHandler(timeline.reporter()));
        timeline.start();
        for (int i = 0; i < requests; i++) {
            Observation.createNotStarted("http.server.requests", registry).contextualName("GET /orders")
                    .observe(() -> securityFilterChain(registry));
        }
        // One more, whose work continues on another thread under a nested observation with the request its parent.
        AtomicLong otherThread = new AtomicLong();
        AtomicLong inOther = new AtomicLong();
        Observation request = Observation.createNotStarted("http.server.requests", registry)
                .contextualName("GET /reports").start();
        Thread worker = new Thread(() -> Observation.createNotStarted("report.render", registry)
                .parentObservation(request).observe(() -> {
                    otherThread.set(Thread.currentThread().getId());
                    inOther.set(epochNanos());
                }));
        worker.start();
        worker.join();
        request.stop();
        RequestLog log = timeline.stop();
        timeline.close();

        assertThat(log.dropped()).isZero();
        assertThat(log.requestsEnded("GET /orders")).isEqualTo(requests);
        assertThat(log.requestAt(otherThread.get(), inOther.get())).isEqualTo("GET /reports");
    }

    /** As Spring Security's observed filter chain: its observation's scope around each filter, two more inside. */
    private static void securityFilterChain(ObservationRegistry registry) {
        Observation chain = Observation.createNotStarted("spring.security.filterchains", registry).start();
        for (String filter : FILTERS) {
            try (Observation.Scope scope = chain.openScope()) {
                if (filter.equals("BasicAuthenticationFilter")) {
                    Observation.createNotStarted("spring.security.authentications", registry).observe(() -> { });
                } else if (filter.equals("AuthorizationFilter")) {
                    Observation.createNotStarted("spring.security.authorizations", registry).observe(() -> { });
                }
            }
        }
        chain.stop();
    }

    private static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }
}
