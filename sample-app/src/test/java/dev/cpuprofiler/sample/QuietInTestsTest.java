package dev.cpuprofiler.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A user's own {@code @SpringBootTest} of an application that burns CPU: the sample, its demo load on from the
 * first second, with windows short enough and a threshold low enough (10%) that outside a test the CPU trigger would
 * fire within about two seconds ({@link SampleApplicationSmokeTest}, which asks for the profiler with
 * {@code @AutoConfigureCpuProfiler}, sees it fire). Here nothing records by itself, nothing is written to the output
 * directory and nothing is pushed to the Pyroscope URL the test sets, while an on-demand profile over HTTP works.
 * The output directory and the URL come through {@code @DynamicPropertySource}, whose source Spring puts ahead of
 * the others: quiet wins all the same.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "sample.demo.quiet-period=0s",
        "sample.demo.stop-after-profile=false",
        // Past the on-demand profile, and no longer: the cached context's load would burn beside the next class.
        "sample.demo.max-busy-period=15s",
        "profiler.cpu.threshold=10",
        "profiler.cpu.startup-grace=0s",
        "profiler.cpu.sampling-interval=200ms",
        "profiler.cpu.polling-interval=200ms",
        "profiler.cpu.rolling-history-interval=1s",
        "profiler.cpu.rolling-history-size=10s",
        "profiler.cpu.average-window=2s",
        "profiler.cpu.saturation.window=2s",
        "profiler.cpu.saturation.threshold=60",
        "profiler.cpu.reference.duration=1s",
        "profiler.cpu.duration=1s",
        "management.endpoint.cpuprofiler.access=unrestricted"
})
class QuietInTestsTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Path OUTPUT = ownerOnlyDirectory();
    private static final AtomicInteger PUSHES = new AtomicInteger();
    private static final HttpServer PYROSCOPE = pyroscope();

    @DynamicPropertySource
    static void targets(DynamicPropertyRegistry registry) {
        registry.add("profiler.cpu.output-directory", OUTPUT::toString);
        registry.add("profiler.cpu.export.pyroscope.url",
                () -> "http://127.0.0.1:" + PYROSCOPE.getAddress().getPort());
    }

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler cpuProfiler;

    @AfterAll
    static void stopPyroscope() throws IOException {
        PYROSCOPE.stop(0);
        Files.deleteIfExists(OUTPUT);
    }

    @Test
    void recordsNothingByItselfWritesNothingPushesNothingButProfilesOnDemand() throws Exception {
        // 4 s of the demo load, twice the 2-s windows: outside a test the 2-s average passes 10% within its first
        // seconds and the trigger fires at the next 200-ms tick.
        await().pollDelay(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(5))
                .until(() -> {
                    Double average = cpuProfiler.status().cpu().averagePercent();
                    return average != null && average > 10;
                });
        assertThat(cpuProfiler.profiles()).as("profiles recorded by themselves").isEmpty();
        assertThat(cpuProfiler.activeSession()).isEmpty();

        HttpResponse<String> started = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/actuator/cpuprofiler?duration=1s"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(started.statusCode()).as(started.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> !cpuProfiler.profiles().isEmpty());
        Profile profile = cpuProfiler.profiles().get(0);
        assertThat(profile.trigger()).isEqualTo(SessionTrigger.MANUAL);
        assertThat(profile.recording().samples()).isPositive();

        assertThat(cpuProfiler.profiles()).extracting(Profile::trigger).containsOnly(SessionTrigger.MANUAL);
        try (Stream<Path> files = Files.list(OUTPUT)) {
            assertThat(files).as("files in the output directory").isEmpty();
        }
        assertThat(PUSHES.get()).as("pushes to Pyroscope").isZero();
    }

    private static Path ownerOnlyDirectory() {
        try {
            return Files.createTempDirectory("quiet-in-tests",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpServer pyroscope() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                PUSHES.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
                exchange.close();
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
