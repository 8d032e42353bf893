package dev.cpuprofiler.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.fixtures.PyroscopeStandIn;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real web application (random port) is shut down while an on-demand profile, started over HTTP, records with a
 * real engine. The profile is kept: stored, cut short and saying so, written to the output directory and pushed to a
 * Pyroscope stand-in before the exporter stops. Afterwards no thread of its profiler is left, its private work
 * directory (the one its status names, not guessed among java.io.tmpdir's) is gone with the recording in it, the
 * engine's JFR recording is closed, and an application thread that asked for nothing runs on undisturbed. (The same
 * from outside, a SIGTERM to a child JVM: {@code RealisticProfileTest} in realistic-app.)
 */
class ContextCloseMidSessionTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
    }

    @TempDir
    Path output;

    @Test
    void closingTheContextMidSessionKeepsWritesAndPushesTheProfileAndLeavesNothingOfOurs() throws Exception {
        PyroscopeStandIn pyroscope = new PyroscopeStandIn();
        List<String> pushed = pyroscope.pushes();
        OwnThreadGroup own = new OwnThreadGroup();
        AtomicReference<ConfigurableApplicationContext> started = new AtomicReference<>();
        // Started from a thread of its own group: every thread of this context can be told from other contexts'.
        own.run(() -> started.set(new SpringApplicationBuilder(App.class).properties(
                "server.port=0",
                "spring.main.banner-mode=off",
                "management.endpoints.web.exposure.include=cpuprofiler",
                "management.endpoint.cpuprofiler.access=unrestricted",
                "profiler.cpu.enabled=false",
                "profiler.cpu.output-directory=" + output,
                "profiler.cpu.export.pyroscope.url=" + pyroscope.url(),
                // A JFR engine, whose recording the test follows: async-profiler is on this module's test class path
                // too (CpuByEndpointTest), and auto would pick it before JDK 25.
                "profiler.cpu.engine=" + (Runtime.version().feature() >= 25 ? "jfr-cpu-time" : "jfr-execution"))
                .run()));
        ConfigurableApplicationContext context = started.get();
        AtomicBoolean working = new AtomicBoolean(true);
        AtomicLong work = new AtomicLong();
        Thread application = new Thread(() -> {
            long x = 0;
            while (working.get()) {
                for (int i = 0; i < 100_000; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
                work.incrementAndGet();
            }
            if (x == 42) {
                System.out.println();
            }
        }, "application-worker");
        application.setDaemon(true);
        application.start();
        try {
            String base = "http://localhost:" + context.getEnvironment().getProperty("local.server.port");
            long recording = System.nanoTime();
            HttpResponse<String> post = post(base + "/actuator/cpuprofiler", "{\"duration\": \"5m\"}");
            assertThat(post.statusCode()).as(post.body()).isEqualTo(200);
            JsonNode session = JSON.readTree(post.body());
            String id = session.path("id").asString();
            String engine = session.path("engine").asString();
            assertThat(engine).as("an engine every JDK here has").isIn("jfr-execution", "jfr-cpu-time");
            CpuProfiler profiler = context.getBean(CpuProfiler.class);
            await().atMost(Duration.ofSeconds(20)).until(() -> profiler.status().session().samples() > 0);

            String recordingName = "cpuprofiler " + engine + " " + id;
            assertThat(jfrRecordings()).contains(recordingName);
            assertThat(own.alive("cpuprofiler-")).extracting(Thread::getName)
                    .contains("cpuprofiler-sampler", "cpuprofiler-session");
            // The private work directory, as the status names it, holding this session's recording.
            Path workDirectory = Path.of(profiler.status().disk().places().stream()
                    .filter(p -> p.role().equals("work-directory")).findFirst().orElseThrow().path());
            assertThat(workDirectory.getParent()).isEqualTo(Path.of(System.getProperty("java.io.tmpdir")));
            assertThat(holdsRecordingOf(workDirectory, id)).as("the recording in %s", workDirectory).isTrue();
            long workBefore = work.get();

            context.close();

            Profile kept = profiler.profile(id).orElseThrow();
            assertThat(kept.recording().notes().get(0)).startsWith(CpuProfiler.CUT_SHORT_BY_SHUTDOWN + ": recorded ")
                    .endsWith(" of the 300 s planned");
            assertThat(kept.recording().duration()).isLessThan(Duration.ofNanos(System.nanoTime() - recording));
            assertThat(kept.recording().samples()).isPositive();
            try (Stream<Path> files = Files.list(output)) {
                assertThat(files.map(f -> f.getFileName().toString())).as("the output directory")
                        .contains(id + ProfileFormat.COLLAPSED.extension(), id + ProfileFormat.HTML.extension());
            }
            assertThat(pushed).as("pushed to Pyroscope").singleElement().asString().startsWith("/ingest?")
                    .contains("from=" + kept.recording().startedAt().getEpochSecond() + "&");

            assertThat(jfrRecordings()).as("the engine's recording is closed").doesNotContain(recordingName);
            assertThat(workDirectory).doesNotExist();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(own.alive("cpuprofiler-"))
                    .as("threads of the closed context's profiler").isEmpty());
            assertThat(application.isAlive()).isTrue();
            assertThat(application.isInterrupted()).isFalse();
            await().atMost(Duration.ofSeconds(10)).until(() -> work.get() > workBefore);
        } finally {
            working.set(false);
            context.close();
            pyroscope.close();
            application.join(10_000);
        }
    }

    private static HttpResponse<String> post(String url, String json) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static boolean holdsRecordingOf(Path dir, String sessionId) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith(sessionId + "-"));
        } catch (IOException e) {
            return false;
        }
    }

    private static List<String> jfrRecordings() {
        return FlightRecorder.getFlightRecorder().getRecordings().stream().map(Recording::getName).toList();
    }
}
