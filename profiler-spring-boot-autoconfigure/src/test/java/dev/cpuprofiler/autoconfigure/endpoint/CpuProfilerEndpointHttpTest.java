package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import dev.cpuprofiler.core.CpuProfiler;
import dev.cpuprofiler.session.Profile;
import dev.cpuprofiler.threads.ThreadCpu;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The whole starter in a real web application over real HTTP: short windows, a CPU-burning thread, and the
 * status going MONITORING → PROFILING → COOLDOWN with a profile that shows the burning method, before the trigger
 * (look-back) and after it (the session).
 */
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "profiler.cpu.threshold=25",
            "profiler.cpu.sampling-interval=100ms",
            "profiler.cpu.rolling-history-interval=1s",
            "profiler.cpu.average-window=2s",
            "profiler.cpu.rolling-history-size=10s",
            "profiler.cpu.polling-interval=200ms",
            "profiler.cpu.duration=3s",
            "profiler.cpu.cooldown=5s",
            "profiler.cpu.lookback=5s"
        })
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
        return profiler.profiles().list().stream().map(Profile::id).toList();
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

    @Test
    void cpuTriggeredProfileOverRealHttp() throws Exception {
        Http http = new Http(port);
        // Right after start-up the JIT compilers alone can keep two CPUs busy for seconds (and may trigger
        // a profile): wait until the process has settled, then make the load.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            JsonNode s = http.json("/actuator/cpuprofiler");
            return s.path("state").asString().equals("MONITORING") && s.path("cpu").path("averagePercent").isNumber()
                    && s.path("cpu").path("averagePercent").asDouble() < 12
                    && s.path("lookback").path("state").asString().equals("RECORDING");
        });
        JsonNode status = http.json("/actuator/cpuprofiler");
        assertThat(status.path("state").asString()).isEqualTo("MONITORING");
        assertThat(status.path("cpu").path("source").asString()).isIn("cgroup-v2", "cgroup-v1", "process")
                .isEqualTo(profiler.cpuSource().source().kind().id());
        assertThat(status.path("cpu").path("effectiveCpuCount").asDouble()).isPositive();
        assertThat(status.path("cpu").path("thresholdPercent").asDouble()).isEqualTo(25.0);
        assertThat(status.path("trigger").path("enabled").asBoolean()).isTrue();
        assertThat(status.path("trigger").path("cooldown").asString()).isEqualTo("PT5S");
        assertThat(status.path("trigger").path("cooldownUntil").isNull()).isTrue();
        assertThat(status.path("session").isNull()).isTrue();
        assertThat(status.path("lookback").path("window").asString()).isEqualTo("PT5S");
        assertThat(status.path("lookback").path("samplingPeriod").asString()).isEqualTo("PT0.02S");
        // The JIT's start-up burst may have triggered a profile already; either way the status lists exactly what
        // the store holds (CpuProfilerEndpointStatusTest checks the answers before any profile exists).
        List<String> storedBefore = storedIds();
        assertThat(ids(status.path("profiles"))).containsExactlyElementsOf(storedBefore);
        HttpResponse<String> latestBefore = http.get("/actuator/cpuprofiler/latest");
        if (storedBefore.isEmpty()) {
            assertThat(status.path("latestProfile").isNull()).isTrue();
            assertThat(latestBefore.statusCode()).isEqualTo(404);
            assertThat(Http.parse(latestBefore.body()).path("message").asString())
                    .isEqualTo("No profile 'latest': none recorded yet");
        } else {
            String newest = profiler.profiles().latest().orElseThrow().id();
            assertThat(status.path("latestProfile").path("id").asString()).isEqualTo(newest);
            assertThat(latestBefore.statusCode()).isEqualTo(200);
            assertThat(Http.parse(latestBefore.body()).path("id").asString()).isEqualTo(newest);
        }

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
        JsonNode latest = after.path("latestProfile");
        Profile stored = profiler.profiles().latest().orElseThrow();
        assertThat(latest.path("id").asString()).isEqualTo(stored.id());
        assertThat(latest.path("trigger").asString()).isEqualTo("CPU");
        assertThat(latest.path("engine").asString()).isIn("jfr-cpu-time", "async-profiler", "jfr-execution")
                .isEqualTo(stored.engine());
        assertThat(latest.path("samples").asLong()).isEqualTo(stored.samples());
        assertThat(latest.path("samples").asLong()).isPositive();
        assertThat(latest.path("tree").path("frame").asString()).isEqualTo("all");
        // The burners ran for seconds before the average crossed the threshold: the look-back saw them.
        JsonNode lookback = latest.path("lookback");
        assertThat(lookback.path("samples").asLong()).isPositive();
        assertThat(lookback.path("samplingPeriod").asString()).isEqualTo("PT0.02S");
        assertThat(lookback.path("weightUnit").asString()).isEqualTo("PT0.01S");
        assertThat(Instant.parse(lookback.path("endedAt").asString()))
                .isBeforeOrEqualTo(Instant.parse(latest.path("startedAt").asString()));
        assertThat(latest.path("lookbackView").asString()).isEqualTo("include");
        assertThat(latest.path("tree").path("total").asLong())
                .isEqualTo(latest.path("samples").asLong() + lookback.path("weight").asLong());
        assertThat(treeContains(latest.path("tree"), "burnInTheEndpointTest")).isTrue();
        assertThat(ids(after.path("profiles"))).containsExactlyElementsOf(storedIds()).contains(stored.id())
                .hasSize(storedBefore.size() + 1);
        // Four burners spinning in one method: it leads the hot methods, whole stacks, no cut.
        JsonNode hot = latest.path("hotMethods");
        assertThat(hot.isArray()).isTrue();
        assertThat(hot.size()).isBetween(1, 20);
        assertThat(hot.get(0).path("method").asString()).endsWith("CpuProfilerEndpointHttpTest.burnInTheEndpointTest");
        assertThat(hot.get(0).path("selfPercent").asDouble()).isBetween(30.0, 100.0);
        assertThat(hot.get(0).path("totalPercent").asDouble())
                .isGreaterThanOrEqualTo(hot.get(0).path("selfPercent").asDouble());
        assertThat(hot.get(0).path("samples").asLong()).isPositive();
        assertThat(latest.path("cutPercent").asDouble()).isLessThan(5.0);
        assertThat(latest.path("cutSamples").isNumber()).isTrue();
        // Where the CPU went: the burners are application threads; the groups add up.
        JsonNode breakdown = latest.path("cpuBreakdown");
        assertThat(breakdown.path("processCpuTime").asString()).startsWith("PT");
        assertThat(breakdown.path("source").asString()).isIn("proc", "jvm")
                .isEqualTo(stored.cpuBreakdown().source());
        List<String> groups = new ArrayList<>();
        double sum = 0;
        for (JsonNode g : breakdown.path("groups")) {
            groups.add(g.path("group").asString());
            sum += g.path("percent").asDouble();
        }
        assertThat(groups).startsWith("application", "gc", "jit", "profiler", "jvm-other");
        assertThat(sum).isBetween(95.0, 105.0);
        assertThat(breakdown.path("groups").get(0).path("percent").asDouble()).isGreaterThan(50.0);
        assertThat(registry.find("profiler.cpu.breakdown").tag("group", "application").gauge().value())
                .isBetween(0.5, 1.0);
        JsonNode concurrency = latest.path("concurrency");
        assertThat(concurrency.path("utilization").asDouble()).isBetween(0.1, 1.0);
        assertThat(concurrency.path("bottleneck").asDouble()).isBetween(
                concurrency.path("utilization").asDouble(), 1.0);
        assertThat(concurrency.path("histogram").isArray()).isTrue();
        // The burners used the most CPU. How much of a core each got depends on what else the machine runs, so
        // which label they get is not fixed here (ThreadLabelsOnRealThreadsTest covers labels): the endpoint must
        // show the one the profile holds.
        ThreadCpu busiest = stored.concurrency().threads().get(0);
        assertThat(concurrency.path("threads").get(0).path("name").asString()).startsWith("endpoint-test-burner-")
                .isEqualTo(busiest.name());
        assertThat(concurrency.path("threads").get(0).path("label").asString())
                .isIn("CPU_BOUND", "MIXED", "MOSTLY_WAITING").isEqualTo(busiest.label().name());
        assertThat(after.path("threads").isArray()).isTrue();
        String id = latest.path("id").asString();

        HttpResponse<String> json = http.get("/actuator/cpuprofiler/" + id);
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(json.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("application/json"));
        JsonNode full = Http.parse(json.body());
        assertThat(full.path("id").asString()).isEqualTo(id);
        assertThat(treeContains(full.path("tree"), "burnInTheEndpointTest")).isTrue();

        HttpResponse<String> text = http.get("/actuator/cpuprofiler/latest?format=text");
        assertThat(text.statusCode()).isEqualTo(200);
        assertThat(text.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("text/plain"));
        assertThat(text.body()).contains("burnInTheEndpointTest").contains("Utilization").contains("bottleneck")
                .contains("Engine: ").contains("Hot methods (self time").contains("Where the CPU went: ");
        // The hot methods come before the tree, so a reader sees them first.
        assertThat(text.body().indexOf("Hot methods")).isLessThan(text.body().indexOf("100.00%  all"));

        HttpResponse<String> collapsed = http.get("/actuator/cpuprofiler/latest?format=collapsed");
        assertThat(collapsed.statusCode()).isEqualTo(200);
        assertThat(collapsed.body().lines()).anyMatch(l -> l.contains("burnInTheEndpointTest") && l.matches(".* \\d+"));

        HttpResponse<String> html = http.get("/actuator/cpuprofiler/" + id + "?format=html");
        assertThat(html.statusCode()).isEqualTo(200);
        assertThat(html.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("text/html"));
        assertThat(html.body()).contains("burnInTheEndpointTest").doesNotContain("src=\"http");

        JsonNode withoutLookback = http.json("/actuator/cpuprofiler/" + id + "?lookback=exclude");
        assertThat(withoutLookback.path("lookbackView").asString()).isEqualTo("exclude");
        assertThat(withoutLookback.path("tree").path("total").asLong()).isEqualTo(latest.path("samples").asLong());
        HttpResponse<String> onlyLookback = http.get("/actuator/cpuprofiler/" + id + "?format=collapsed&lookback=only");
        assertThat(onlyLookback.statusCode()).isEqualTo(200);
        assertThat(onlyLookback.body().lines()).anyMatch(l -> l.contains("burnInTheEndpointTest"));
        assertThat(onlyLookback.body().lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1)))
                .sum()).isEqualTo(lookback.path("weight").asLong());
        assertThat(text.body()).contains("Look-back: " + lookback.path("samples").asLong() + " samples every 20 ms");
        HttpResponse<String> badLookback = http.get("/actuator/cpuprofiler/latest?lookback=sometimes");
        assertThat(badLookback.statusCode()).isEqualTo(400);
        assertThat(badLookback.body()).contains("Unknown lookback 'sometimes': use include, exclude or only");

        HttpResponse<String> badFormat = http.get("/actuator/cpuprofiler/latest?format=pdf");
        assertThat(badFormat.statusCode()).isEqualTo(400);
        assertThat(badFormat.body()).contains("Unknown format 'pdf'");
        HttpResponse<String> unknown = http.get("/actuator/cpuprofiler/no-such-profile");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(Http.parse(unknown.body()).path("message").asString()).isEqualTo("No profile 'no-such-profile'");

        // Read-only by default: no on-demand profiles over HTTP. The path answers GET only, so POST is 405.
        assertThat(http.post("/actuator/cpuprofiler", "{}").statusCode()).isEqualTo(405);
        assertThat(http.send("POST", "/actuator/cpuprofiler", null, null, null).statusCode()).isEqualTo(405);
        assertThat(profiler.policy().activeSession()).isEmpty();
    }
}
