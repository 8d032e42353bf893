package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.autoconfigure.StoredProfiles;

import static dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpointStatusTest.PATH;
import static dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpointStatusTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpointStatusTest.Client;
import dev.cpuprofiler.autoconfigure.page.StatusPageHeaders;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.web.reactive.DispatcherHandler;

/**
 * The same answers in a Spring WebFlux application (the starter supports both stacks): Spring MVC is on this module's
 * test classpath too, so the application is made reactive explicitly.
 */
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.main.web-application-type=reactive",
            "management.endpoints.web.exposure.include=cpuprofiler",
            "management.endpoint.cpuprofiler.access=unrestricted",
            "profiler.cpu.enabled=false",
            "profiler.cpu.duration=45s"
        })
@DirtiesContext
class CpuProfilerEndpointWebFluxTest {

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler profiler;

    @Autowired
    ApplicationContext context;

    @AfterEach
    void stopTheSession() {
        profiler.cancelActive("the test is over");
        // At once, then every 20 ms (most tests start no session), as CpuProfilerEndpointStatusTest does.
        await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).atMost(Duration.ofSeconds(30))
                .until(() -> profiler.activeSession().isEmpty());
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void everyStatusAsWithSpringMvc(Client client) {
        assertThat(context.getBeanNamesForType(DispatcherHandler.class)).isNotEmpty();
        Http http = new Http(port);
        assertRefused(http.send("GET", PATH + "/no-such-profile", client.accept, null, null), 404,
                "No profile 'no-such-profile'");
        assertRefused(http.send("GET", PATH + "/latest?format=bogus", client.accept, null, null), 400,
                "Unknown format 'bogus'");
        assertRefused(http.send("GET", PATH + "/latest?lookback=sometimes", client.accept, null, null), 400,
                "Unknown lookback 'sometimes'");
        assertRefused(http.send("POST", PATH + "?duration=soon", client.accept, null, null), 400,
                "Invalid duration 'soon'");
        assertRefused(http.send("POST", PATH, client.accept, "application/json", "{\"duration\": \"2h\"}"), 400,
                "Invalid duration '2h': must be between 1s and 1h");
        // A body WebFlux cannot read: Spring Boot's own 400, as any endpoint's.
        assertThat(http.send("POST", PATH, client.accept, "application/json", "{duration: \"5s\"}").statusCode())
                .isEqualTo(400);

        HttpResponse<String> started = http.send("POST", PATH + "?duration=7m", client.accept, null, null);
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        assertThat(started.headers().firstValue("Content-Type")).hasValue("application/json");
        RunningSession running = profiler.activeSession().orElseThrow();
        assertThat(running.duration()).isEqualTo(Duration.ofMinutes(7));
        assertThat(Http.parse(started.body()).path("id").asString()).isEqualTo(running.id());

        for (HttpResponse<String> refused : new HttpResponse[] {http.send("POST", PATH, client.accept, null, null),
                http.send("POST", PATH, client.accept, "application/json", "{\"duration\": \"5s\"}")}) {
            assertRefused(refused, 429, "A profiling session is already running");
            assertThat(Http.parse(refused.body()).path("running").path("id").asString()).isEqualTo(running.id());
        }
    }

    @Test
    void aCrossSiteFormsPostIs415AndStartsNothing() {
        CpuProfilerEndpointStatusTest.assertAFormsPostIs415(new Http(port));
        assertThat(profiler.activeSession()).isEmpty();
    }

    @Test
    void theStatusPageForABrowserAndTheJsonAsBeforeForEveryOtherClient() {
        Http http = new Http(port);
        String html = CpuProfilerStatusPageHttpTest.assertPage(http.send("GET", PATH,
                CpuProfilerStatusPageHttpTest.BROWSER_ACCEPT, null, null));
        assertThat(html).contains("<button id=\"start\"");
        assertThat(Http.parse(http.send("GET", PATH, null, null, null).body()).path("onDemand").path("allowed")
                .asBoolean()).as("the page offers its button").isTrue();
        CpuProfilerStatusPageHttpTest.assertPage(http.send("GET", PATH + "?format=html", null, null, null));
        // Its script and style, with the page's headers (set by the WebFilter here).
        HttpResponse<String> script = http.send("GET", PATH + "/status-page.js", "*/*", null, null);
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).hasValue("text/javascript;charset=UTF-8");
        assertThat(script.headers().firstValue("Content-Security-Policy")).hasValue(StatusPageHeaders.POLICY);
        assertThat(script.body()).contains("function render(s)");
        HttpResponse<String> style = http.send("GET", PATH + "/status-page.css", "text/css,*/*;q=0.1", null, null);
        assertThat(style.headers().firstValue("Content-Type")).hasValue("text/css;charset=UTF-8");
        assertThat(style.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        String[][] clients = {{null, "application/vnd.spring-boot.actuator.v3+json"},
            {"*/*", "application/vnd.spring-boot.actuator.v3+json"}, {"application/json", "application/json"},
            {"application/vnd.spring-boot.actuator.v2+json", "application/vnd.spring-boot.actuator.v2+json"}};
        for (String[] client : clients) {
            HttpResponse<String> json = http.send("GET", PATH, client[0], null, null);
            assertThat(json.statusCode()).isEqualTo(200);
            assertThat(json.headers().firstValue("Content-Type")).as(client[0])
                    .hasValueSatisfying(t -> assertThat(t).startsWith(client[1]));
            assertThat(Http.parse(json.body()).path("state").asString()).isEqualTo("DISABLED");
        }
        HttpResponse<String> bad = http.send("GET", PATH + "?format=xml", null, null, null);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("Unknown format 'xml': use html or json");
    }

    @Test
    void fileFormatsAreTheirBytesInTheirOwnType() throws Exception {
        Path jfr = Files.createTempFile("cpuprofiler-webflux-test", ".jfr");
        try (Recording recording = new Recording()) {
            recording.start();
            recording.stop();
            recording.dump(jfr);
        }
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(List.of(Frame.java("app.Main.run"), Frame.java("app.Hot.spin")), "main", 10);
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        StoredProfiles.add(profiler, ProfileBuilder.profile("20260101T000000Z-manual-1", SessionTrigger.MANUAL,
                tree.snapshot()).engine(EngineChoice.JFR_EXECUTION, "jdk.ExecutionSample")
                .between(start, start.plusSeconds(1)).jfrFile(jfr).build());
        Http http = new Http(port);

        HttpResponse<byte[]> pprof = http.bytes(PATH + "/latest?format=pprof");
        assertThat(pprof.statusCode()).isEqualTo(200);
        assertThat(pprof.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(pprof.body()).startsWith((byte) 0x1f, (byte) 0x8b);

        HttpResponse<byte[]> recording = http.bytes(PATH + "/20260101T000000Z-manual-1?format=jfr");
        assertThat(recording.statusCode()).isEqualTo(200);
        assertThat(recording.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(recording.headers().firstValueAsLong("Content-Length")).hasValue(Files.size(jfr));
        assertThat(recording.body()).isEqualTo(Files.readAllBytes(jfr));
        assertThat(http.get(PATH + "/latest?format=jfr&lookback=exclude").statusCode()).isEqualTo(400);
    }
}
