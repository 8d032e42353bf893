package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

/** With {@code access=unrestricted}, POST starts an on-demand profile; a second one while it runs gets 429. */
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "management.endpoint.cpuprofiler.access=unrestricted",
            "profiler.cpu.enabled=false"
        })
// Closed afterwards: a cached context would keep its profiler's threads running through every later test.
@DirtiesContext
class CpuProfilerEndpointWriteAccessTest {

    @LocalServerPort
    int port;

    @Test
    void postStartsAnOnDemandProfileAndRefusesASecondWhileItRuns() {
        Http http = new Http(port);
        assertThat(http.json("/actuator/cpuprofiler").path("state").asString()).isEqualTo("DISABLED");

        HttpResponse<String> bad = http.post("/actuator/cpuprofiler", "{\"duration\": \"forever\"}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("Invalid duration 'forever'");
        assertThat(http.post("/actuator/cpuprofiler", "{\"duration\": \"2h\"}").statusCode()).isEqualTo(400);

        HttpResponse<String> started = http.post("/actuator/cpuprofiler", "{\"duration\": \"2s\"}");
        assertThat(started.statusCode()).isEqualTo(200);
        JsonNode session = Http.parse(started.body());
        assertThat(session.path("trigger").asString()).isEqualTo("MANUAL");
        assertThat(session.path("duration").asString()).isEqualTo("PT2S");
        String id = session.path("id").asString();

        HttpResponse<String> second = http.post("/actuator/cpuprofiler", "{}");
        assertThat(second.statusCode()).isEqualTo(429);
        assertThat(Http.parse(second.body()).path("running").path("id").asString()).isEqualTo(id);
        assertThat(http.json("/actuator/cpuprofiler").path("session").path("id").asString()).isEqualTo(id);

        await().atMost(Duration.ofSeconds(30)).until(() -> http.get("/actuator/cpuprofiler/" + id).statusCode() == 200);
        JsonNode status = http.json("/actuator/cpuprofiler");
        assertThat(status.path("state").asString()).isEqualTo("DISABLED");
        assertThat(status.path("latestProfile").path("trigger").asString()).isEqualTo("MANUAL");
        assertThat(status.path("trigger").path("cooldownUntil").isNull()).isTrue();
    }
}
