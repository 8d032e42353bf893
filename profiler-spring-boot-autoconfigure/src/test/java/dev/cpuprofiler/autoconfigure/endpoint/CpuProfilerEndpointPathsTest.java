package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.autoconfigure.StoredProfiles;
import dev.cpuprofiler.autoconfigure.page.StatusPageHeaders;
import dev.cpuprofiler.internal.stack.StackTree;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Spring MVC with the actuator where production puts it: on a management port of its own, under a base path, next
 * to an application with a context path: the page's headers come with the page (its filter is the management
 * server's), found by the endpoint's path as the management server maps it, and the endpoint answers as on the
 * application's port.
 */
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "server.servlet.context-path=/shop",
            "management.server.port=0",
            "management.server.base-path=/manage",
            "management.endpoints.web.exposure.include=cpuprofiler",
            "management.endpoint.cpuprofiler.access=unrestricted",
            "profiler.cpu.enabled=false",
            "profiler.cpu.duration=45s"
        })
@DirtiesContext
class CpuProfilerEndpointPathsTest {

    private static final String PATH = "/manage/actuator/cpuprofiler";

    @LocalManagementPort
    int managementPort;

    @Autowired
    CpuProfiler profiler;

    @AfterEach
    void stopTheSession() {
        profiler.cancelActive("the test is over");
        await().atMost(Duration.ofSeconds(30)).until(() -> profiler.activeSession().isEmpty());
    }

    @Test
    void theWebLayersAnswersOnAManagementPortUnderABasePath() {
        Http http = new Http(managementPort);
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(List.of(Frame.java("app.Main.run"), Frame.java("app.Hot.spin")), "main", 10);
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        StoredProfiles.add(profiler, ProfileBuilder.profile("20260101T000000Z-manual-1", SessionTrigger.MANUAL,
                tree.snapshot()).engine(EngineChoice.JFR_EXECUTION, "jdk.ExecutionSample")
                .between(start, start.plusSeconds(1)).build());

        HttpResponse<byte[]> pprof = http.bytes(PATH + "/latest?format=pprof");
        assertThat(pprof.statusCode()).isEqualTo(200);
        assertThat(pprof.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        HttpResponse<byte[]> flameGraph = http.bytes(PATH + "/latest?format=html");
        assertThat(flameGraph.statusCode()).isEqualTo(200);
        assertThat(flameGraph.headers().firstValue("Content-Security-Policy")).as("its own inline script runs").isEmpty();

        HttpResponse<String> page = http.send("GET", PATH, CpuProfilerStatusPageHttpTest.BROWSER_ACCEPT, null, null);
        CpuProfilerStatusPageHttpTest.assertPage(page);
        HttpResponse<String> script = http.send("GET", PATH + "/status-page.js", "*/*", null, null);
        assertThat(script.headers().firstValue("Content-Security-Policy")).hasValue(StatusPageHeaders.POLICY);

        assertThat(http.send("POST", PATH, "application/json", "application/json", "{duration").statusCode())
                .isEqualTo(400);
        assertThat(http.send("POST", PATH + "?duration=40s", "application/json", null, null).statusCode())
                .isEqualTo(200);
        assertThat(profiler.activeSession().orElseThrow().duration()).isEqualTo(Duration.ofSeconds(40));
        HttpResponse<String> busy = http.send("POST", PATH, "text/html", null, null);
        CpuProfilerEndpointStatusTest.assertRefused(busy, 429, "A profiling session is already running");
    }
}
