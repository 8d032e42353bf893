package dev.cpuprofiler.sample;

import dev.cpuprofiler.autoconfigure.test.AutoConfigureCpuProfiler;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.sample.demo.DemoLoadGenerator;
import dev.cpuprofiler.sample.demo.ProfileSummary;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.StackTreeSnapshot;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The demo as a user runs it, only faster: the sample's own application.yml (demo load on, threshold, endpoint
 * exposed), with shorter windows. The app loads itself over HTTP until the CPU trigger records a profile; the test
 * checks that the profile shows the sample's burning methods under the web request path, and that the Actuator
 * endpoint serves it over real HTTP.
 */
// Records by itself (its triggers), which a Spring test context does only when asked.
@AutoConfigureCpuProfiler
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        // 8 s, not 4: the 6-s average must have left the application's own start (Tomcat, the JIT: a second or two at
        // 50-100% CPU) behind when the load begins; with 4 s that burn was still in it, the average crossed 40% under a
        // second after the load began, and the look-back, armed by the load's first second, had 8 samples at most.
        "sample.demo.quiet-period=8s",
        "sample.demo.max-busy-period=80s",
        "profiler.cpu.rolling-history-interval=2s",
        // 6 s, not 4: the look-back arms on the first second of load, the trigger once the average crosses 40%; with
        // a 4-s average a jump to 95% CPU crossed it one tick after the load began, and in one clean-clone CI run the
        // look-back armed 160 ms before the trigger, too late for any of its samples to be in the profile.
        "profiler.cpu.average-window=6s",
        "profiler.cpu.rolling-history-size=20s",
        "profiler.cpu.polling-interval=1s",
        // 3 s of the demo load (its two client threads keep a core or two busy) are hundreds of samples.
        "profiler.cpu.duration=3s",
        "profiler.cpu.startup-grace=4s",
        // Short, so that a profile triggered by start-up work (the JIT) cannot keep the demo load's out.
        "profiler.cpu.cooldown=3s"
})
class SampleApplicationSmokeTest {

    private static final List<String> WORK_METHODS = List.of(
            "dev.cpuprofiler.sample.work.PrimeSieve.countPrimes",
            "dev.cpuprofiler.sample.work.PasswordHasher.stretch",
            "dev.cpuprofiler.sample.work.ReportSorter.sortLargeReport");

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler cpuProfiler;

    @Autowired
    DemoLoadGenerator demoLoad;

    @Test
    void demoLoadTriggersACpuProfileOfTheBurningMethods() {
        // The /work endpoints answer (the load calls them with larger sizes).
        assertThat(get("/work/primes?limit=1000").body()).contains("\"primes\":168");
        assertThat(get("/work/primes?limit=-1").statusCode()).isEqualTo(400);

        // The demo load starts after 8 s; the 6 s average then crosses 40% and a 3 s profile records.
        Profile profile = await("a CPU-triggered profile of the demo load").atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500))
                .until(this::cpuTriggeredProfile, Optional::isPresent).orElseThrow();
        System.out.printf("Smoke test: CPU-triggered profile %s, %d samples by %s (%s), CPU %.0f%%, %s%n",
                profile.id(), profile.recording().samples(), profile.recording().engine(),
                profile.recording().engineDetail(), profile.cpu().percent(),
                ProfileSummary.of(profile));

        assertThat(profile.recording().samples()).isPositive();
        List<List<String>> workPaths = pathsTo(profile.tree(), WORK_METHODS);
        assertThat(workPaths).as("stacks through one of %s", WORK_METHODS).isNotEmpty();
        // Real requests: the burning methods run under Tomcat and Spring MVC's dispatcher.
        assertThat(workPaths).anySatisfy(path -> assertThat(path)
                .anyMatch(frame -> frame.startsWith("org.springframework.web.servlet.DispatcherServlet.")));

        // Look-back is on in the sample: the seconds of load before the trigger are in the profile too.
        assertThat(profile.lookback()).as("the look-back part").isNotNull();
        assertThat(profile.lookback().samples()).isPositive();
        assertThat(profile.lookback().endedAt()).isBeforeOrEqualTo(profile.recording().startedAt());

        // The endpoint shows it over real HTTP.
        JsonNode status = JSON.readTree(get("/actuator/cpuprofiler").body());
        assertThat(status.path("latestProfile").path("trigger").asString()).isEqualTo("CPU");
        assertThat(status.path("profiles").findValuesAsString("id")).contains(profile.id());
        assertThat(status.path("latestProfile").path("lookback").path("samples").asLong())
                .isEqualTo(profile.lookback().samples());
        HttpResponse<String> text = get("/actuator/cpuprofiler/latest?format=text");
        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.body()).containsAnyOf(WORK_METHODS.toArray(String[]::new));
        HttpResponse<String> html = get("/actuator/cpuprofiler/" + profile.id() + "?format=html");
        assertThat(html.statusCode()).isEqualTo(200);
        assertThat(html.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
    }

    /** A CPU-triggered profile that started once the demo load was running. */
    private Optional<Profile> cpuTriggeredProfile() {
        Optional<Instant> busySince = demoLoad.busySince();
        if (busySince.isEmpty()) {
            return Optional.empty();
        }
        return cpuProfiler.profiles().stream()
                .filter(p -> p.trigger() == SessionTrigger.CPU && !p.recording().startedAt().isBefore(busySince.get()))
                .findFirst();
    }

    /** The root-to-node frame paths of every node whose frame is one of {@code frames}. */
    private static List<List<String>> pathsTo(StackTreeSnapshot tree, List<String> frames) {
        List<List<String>> found = new ArrayList<>();
        for (int node = 0; node < tree.size(); node++) {
            if (frames.contains(tree.frame(node))) {
                Deque<String> path = new ArrayDeque<>();
                for (int n = node; n >= 0; n = tree.parent(n)) {
                    path.addFirst(tree.frame(n));
                }
                found.add(List.copyOf(path));
            }
        }
        return found;
    }

    private HttpResponse<String> get(String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
