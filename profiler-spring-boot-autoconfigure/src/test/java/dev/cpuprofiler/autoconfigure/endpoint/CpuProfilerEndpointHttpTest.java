package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.test.AutoConfigureCpuProfiler;
import dev.cpuprofiler.CpuBreakdown;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.ThreadCpu;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPInputStream;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

/**
 * The smoke test of the whole starter in a real web application over real HTTP (random port, a real
 * {@link CpuProfiler} with a real engine): short windows, CPU-burning threads, and the status going MONITORING →
 * PROFILING → COOLDOWN with a profile that shows the burning method, before the trigger (look-back) and after it (the
 * session), in every format. The source and the engine are set, so their names are exact; figures a machine decides
 * (how much of a core each burner got) are checked against what the profile holds and how the product derives
 * them. Every figure of a known profile, the refusals and the empty store are {@link CpuProfilerEndpointFixtureTest}'s
 * and {@link CpuProfilerEndpointStatusTest}'s part.
 */
// Records by itself (its triggers), which a Spring test context does only when asked.
@AutoConfigureCpuProfiler
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "profiler.cpu.threshold=25",
            "profiler.cpu.source=process",
            "profiler.cpu.engine=jfr-execution",
            "profiler.cpu.sampling-interval=100ms",
            "profiler.cpu.rolling-history-interval=1s",
            "profiler.cpu.average-window=2s",
            "profiler.cpu.rolling-history-size=10s",
            "profiler.cpu.polling-interval=200ms",
            "profiler.cpu.duration=3s",
            "profiler.cpu.cooldown=5s",
            "profiler.cpu.lookback=5s",
            "profiler.cpu.startup-grace=0s",
            // References have tests of their own (CpuProfilerReferenceTest, the sample's smoke test); with 2-s windows
            // one recorded between this test's bursts, and its text then opened with "What changed".
            "profiler.cpu.reference.enabled=false"
        })
// Closed afterwards: a cached context would keep its profiler sampling, and its look-back recording, through every
// later test.
@DirtiesContext
class CpuProfilerEndpointHttpTest {

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry registry;

    @Autowired
    CpuProfiler profiler;

    private static List<String> ids(JsonNode profiles) {
        List<String> ids = new ArrayList<>();
        profiles.forEach(p -> ids.add(p.path("id").asString()));
        return ids;
    }

    private List<String> storedIds() {
        return profiler.profiles().stream().map(Profile::id).toList();
    }

    static long burnInTheEndpointTest(long seed) {
        long x = seed;
        for (int i = 0; i < 100_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 31;
        }
        return x;
    }

    private static boolean treeContains(JsonNode node, String fragment) {
        if (node.path("frame").asString("").contains(fragment)) {
            return true;
        }
        for (JsonNode child : node.path("children")) {
            if (treeContains(child, fragment)) {
                return true;
            }
        }
        return false;
    }

    private static long collapsedWeight(String collapsed) {
        return collapsed.lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void cpuTriggeredProfileOverRealHttp() throws Exception {
        Http http = new Http(port);
        // Right after start-up the JIT compilers alone can keep two CPUs busy for seconds, and may even trigger a
        // profile: wait until the process has settled (and any such cooldown is over), then make the load. The
        // calm status is the one the wait accepted: a second request could find the look-back armed by a burst of the
        // JIT's (one CI run read it so, its reason then empty).
        AtomicReference<JsonNode> calm = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            JsonNode s = http.json("/actuator/cpuprofiler");
            calm.set(s);
            return s.path("state").asString().equals("MONITORING") && s.path("cpu").path("averagePercent").isNumber()
                    && s.path("cpu").path("averagePercent").asDouble() < 12
                    && s.path("lookback").path("state").asString().equals("IDLE");
        });
        JsonNode status = calm.get();
        assertThat(status.path("state").asString()).isEqualTo("MONITORING");
        assertThat(status.path("cpu").path("source").asString()).isEqualTo("process");
        assertThat(status.path("cpu").path("thresholdPercent").asDouble()).isEqualTo(25.0);
        assertThat(status.path("trigger").path("cooldown").asString()).isEqualTo("PT5S");
        assertThat(status.path("trigger").path("cooldownUntil").isNull()).isTrue();
        assertThat(status.path("session").isNull()).isTrue();
        assertThat(status.path("lookback").path("window").asString()).isEqualTo("PT5S");
        // Calm: the look-back records nothing and says why; the load below arms it.
        // Its level is the normal (the lowest 10-s mean so far, which may still hold the start-up's JIT) + 5 points,
        // between the floor (0.6 of the threshold) and the threshold.
        double level = status.path("lookback").path("armingPercent").asDouble();
        assertThat(level).isBetween(15.0, 25.0);
        assertThat(status.path("lookback").path("reason").asString()).contains(
                String.format(java.util.Locale.ROOT, "is not above the arming level %.1f%%", level));
        assertThat(status.path("lookback").path("samplingPeriod").asString()).isEqualTo("PT0.05S");
        // Whatever the start-up left (normally nothing): the status lists exactly what the store holds, and the
        // profile this test makes is the one new one.
        List<String> storedBefore = storedIds();
        assertThat(ids(status.path("profiles"))).containsExactlyElementsOf(storedBefore);

        AtomicBoolean burning = new AtomicBoolean(true);
        List<Thread> burners = new ArrayList<>();
        // Four burners: enough to pass the threshold even when the machine is shared.
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (burning.get()) {
                    x = burnInTheEndpointTest(x);
                }
                if (x == 7) {
                    System.out.println();
                }
            }, "endpoint-test-burner-" + i);
            t.setDaemon(true);
            t.start();
            burners.add(t);
        }
        List<String> states = new ArrayList<>();
        try {
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100)).until(() -> {
                String state = http.json("/actuator/cpuprofiler").path("state").asString();
                if (states.isEmpty() || !states.get(states.size() - 1).equals(state)) {
                    states.add(state);
                }
                return state.equals("COOLDOWN");
            });
        } finally {
            burning.set(false);
            for (Thread t : burners) {
                t.join();
            }
        }
        assertThat(states).containsSubsequence("MONITORING", "PROFILING", "COOLDOWN");

        JsonNode after = http.json("/actuator/cpuprofiler");
        assertThat(after.path("trigger").path("cooldownUntil").isString()).isTrue();
        assertThat(after.path("trigger").path("cooldownRemaining").asString()).startsWith("PT");
        List<String> storedAfter = storedIds();
        assertThat(storedAfter).hasSize(storedBefore.size() + 1).containsAll(storedBefore);
        Profile stored = profiler.profile(CpuProfiler.LATEST).orElseThrow();
        assertThat(storedBefore).doesNotContain(stored.id());
        assertThat(ids(after.path("profiles"))).containsExactlyElementsOf(storedAfter);
        JsonNode latest = after.path("latestProfile");
        assertThat(latest.path("id").asString()).isEqualTo(stored.id());
        assertThat(latest.path("trigger").asString()).isEqualTo("CPU");
        assertThat(latest.path("engine").asString()).isEqualTo("jfr-execution");
        assertThat(latest.path("samples").asLong()).isPositive().isEqualTo(stored.recording().samples());
        assertThat(latest.path("tree").path("frame").asString()).isEqualTo("all");
        // The burners ran for seconds before the average crossed the threshold: the look-back saw them.
        JsonNode lookback = latest.path("lookback");
        assertThat(lookback.path("samples").asLong()).isPositive().isEqualTo(stored.lookback().samples());
        assertThat(lookback.path("weight").asLong()).isEqualTo(stored.lookback().weight());
        assertThat(lookback.path("samplingPeriod").asString()).isEqualTo("PT0.05S");
        assertThat(lookback.path("weightUnit").asString()).isEqualTo("PT0.01S");
        assertThat(Instant.parse(lookback.path("endedAt").asString()))
                .isBeforeOrEqualTo(Instant.parse(latest.path("startedAt").asString()));
        assertThat(latest.path("lookbackView").asString()).isEqualTo("include");
        assertThat(latest.path("tree").path("total").asLong())
                .isEqualTo(latest.path("samples").asLong() + lookback.path("weight").asLong());
        // Four burners spinning in one method: it leads the hot methods.
        JsonNode hot = latest.path("hotMethods");
        assertThat(hot.get(0).path("method").asString())
                .isEqualTo(CpuProfilerEndpointHttpTest.class.getName() + ".burnInTheEndpointTest");
        assertThat(hot.get(0).path("totalPercent").asDouble())
                .isGreaterThanOrEqualTo(hot.get(0).path("selfPercent").asDouble());
        // Where the CPU went: every group, in the contract's order, from the profile's own figures.
        JsonNode breakdown = latest.path("cpuBreakdown");
        assertThat(breakdown.path("source").asString()).isEqualTo(stored.cpu().breakdown().source());
        assertThat(breakdown.path("groups")).extracting(g -> g.path("group").asString())
                .startsWith("application", "gc", "jit", "profiler", "jvm-other");
        assertThat(registry.find("profiler.cpu.breakdown").tag("group", "application").gauge().value())
                .isEqualTo(stored.cpu().breakdown().ratio(CpuBreakdown.Group.APPLICATION));
        // The burners used the most CPU; how much of a core each got depends on the machine, so their label is
        // checked against their own figure: the label the product derives from it.
        ThreadCpu busiest = stored.cpu().concurrency().threads().get(0);
        JsonNode busiestShown = latest.path("concurrency").path("threads").get(0);
        assertThat(busiestShown.path("name").asString()).startsWith("endpoint-test-burner-")
                .isEqualTo(busiest.name());
        assertThat(busiestShown.path("label").asString()).isEqualTo(busiest.label().name())
                .isEqualTo(ThreadCpu.Label.of(busiest.cpuPercent()).name());
        String id = latest.path("id").asString();

        HttpResponse<String> json = http.get("/actuator/cpuprofiler/" + id);
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(json.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("application/json"));
        JsonNode full = Http.parse(json.body());
        assertThat(full.path("id").asString()).isEqualTo(id);
        assertThat(full.path("tree").path("total").asLong()).isEqualTo(latest.path("tree").path("total").asLong());
        assertThat(treeContains(full.path("tree"), "burnInTheEndpointTest")).isTrue();

        HttpResponse<String> text = http.get("/actuator/cpuprofiler/latest?format=text");
        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("text/plain"));
        assertThat(text.body()).startsWith("Profile " + id + " (CPU)  ").contains("\nEngine: jfr-execution")
                .contains("Look-back: " + lookback.path("samples").asLong() + " samples every 50 ms")
                .contains("burnInTheEndpointTest");

        HttpResponse<String> collapsed = http.get("/actuator/cpuprofiler/latest?format=collapsed");
        assertThat(collapsed.statusCode()).isEqualTo(200);
        assertThat(collapsedWeight(collapsed.body())).isEqualTo(latest.path("tree").path("total").asLong());
        assertThat(collapsed.body().lines()).anyMatch(l -> l.contains("burnInTheEndpointTest"));

        HttpResponse<String> html = http.get("/actuator/cpuprofiler/" + id + "?format=html");
        assertThat(html.statusCode()).isEqualTo(200);
        assertThat(html.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("text/html"));
        assertThat(html.body()).contains("burnInTheEndpointTest").doesNotContain("src=\"http");

        JsonNode withoutLookback = http.json("/actuator/cpuprofiler/" + id + "?lookback=exclude");
        assertThat(withoutLookback.path("tree").path("total").asLong()).isEqualTo(latest.path("samples").asLong());
        HttpResponse<String> onlyLookback = http.get("/actuator/cpuprofiler/" + id + "?format=collapsed&lookback=only");
        assertThat(onlyLookback.statusCode()).isEqualTo(200);
        assertThat(onlyLookback.body().lines()).anyMatch(l -> l.contains("burnInTheEndpointTest"));
        assertThat(collapsedWeight(onlyLookback.body())).isEqualTo(lookback.path("weight").asLong());

        // The file formats: pprof decodes as gzip, the JFR recording the engine wrote reads back with the JDK's parser.
        HttpResponse<byte[]> pprof = http.bytes("/actuator/cpuprofiler/latest?format=pprof");
        assertThat(pprof.statusCode()).isEqualTo(200);
        assertThat(pprof.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(pprof.body()).startsWith((byte) 0x1f, (byte) 0x8b);
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(pprof.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1)).contains("burnInTheEndpointTest");
        }
        HttpResponse<byte[]> jfr = http.bytes("/actuator/cpuprofiler/" + id + "?format=jfr");
        assertThat(jfr.statusCode()).isEqualTo(200);
        assertThat(jfr.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(jfr.headers().firstValueAsLong("Content-Length")).hasValue(jfr.body().length);
        Path recording = Files.write(Files.createTempFile("cpuprofiler-http-test", ".jfr"), jfr.body());
        try {
            List<String> events = RecordingFile.readAllEvents(recording).stream().map(e -> e.getEventType().getName())
                    .distinct().toList();
            assertThat(events).contains("jdk.ExecutionSample");
        } finally {
            Files.delete(recording);
        }
        HttpResponse<String> jfrOnly = http.get("/actuator/cpuprofiler/" + id + "?format=jfr&lookback=only");
        assertThat(jfrOnly.statusCode()).isEqualTo(400);
        assertThat(Http.parse(jfrOnly.body()).path("message").asString()).startsWith("lookback=only does not apply");

        // Read-only by default: no on-demand profiles over HTTP. The path answers GET only, so POST is 405.
        assertThat(http.post("/actuator/cpuprofiler", "{}").statusCode()).isEqualTo(405);
        assertThat(http.send("POST", "/actuator/cpuprofiler", null, null, null).statusCode()).isEqualTo(405);
        assertThat(profiler.activeSession()).isEmpty();
    }
}
