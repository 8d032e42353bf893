package dev.cpuprofiler.autoconfigure.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.autoconfigure.test.AutoConfigureCpuProfiler;
import dev.cpuprofiler.fixtures.OpenLoopLoad;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The latency trigger in a real Spring MVC application over real HTTP, driven open-loop: one endpoint turns slow by
 * queueing on a lock that a background thread holds most of the time, one by burning CPU, another stays calm. A
 * LATENCY profile appears by itself; the lock's endpoint reads WAIT with the lock's frame first and its wait per
 * request near what the application itself measured, the burning one CPU with its hot method; the calm one is not
 * blamed; the text says so.
 */
@AutoConfigureCpuProfiler
@SpringBootTest(classes = LatencyTriggerTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "profiler.cpu.enabled=false",
            "profiler.cpu.reference.enabled=false",
            // The first seconds of a cold JVM are slow by themselves: no incident.
            "profiler.cpu.startup-grace=5s",
            "profiler.cpu.polling-interval=200ms",
            "profiler.cpu.sampling-interval=200ms",
            "profiler.cpu.duration=4s",
            "profiler.cpu.lookback=0",
            "profiler.latency.threshold=50ms",
            "profiler.latency.window=5s",
            "profiler.latency.min-requests=10",
            "profiler.latency.wait-threshold=2ms"
        })
@DirtiesContext
class LatencyTriggerTest {

    /** Held by the background thread 200 ms of every 220: most requests queue behind it, 100 ms on average. */
    static final Object VAULT = new Object();
    static final AtomicLong WAITED_NANOS = new AtomicLong();
    static final AtomicLong VAULT_REQUESTS = new AtomicLong();

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Endpoints.class)
    static class App {
    }

    @RestController
    static class Endpoints {

        @GetMapping("/vault")
        String vault() {
            long asked = System.nanoTime();
            synchronized (VAULT) {
                WAITED_NANOS.addAndGet(System.nanoTime() - asked);
                VAULT_REQUESTS.incrementAndGet();
                return "opened";
            }
        }

        /** 150 ms of this thread's CPU a request, however long the machine makes it wait for a CPU. */
        @GetMapping("/burn")
        String burn() {
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            return Long.toString(spin(threads, threads.getCurrentThreadCpuTime() + 150_000_000L));
        }

        static long spin(java.lang.management.ThreadMXBean threads, long untilCpu) {
            long x = 1;
            while (threads.getCurrentThreadCpuTime() < untilCpu) {
                for (int i = 0; i < 1000; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
            }
            return x;
        }

        @GetMapping("/calm")
        String calm() {
            return "calm";
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler profiler;

    @Test
    void anEndpointQueueingOnALockReadsWaitWithTheLocksFrameAndTheCalmOneIsNotBlamed() throws Exception {
        Thread holder = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    synchronized (VAULT) {
                        Thread.sleep(200);
                    }
                    Thread.sleep(20);
                }
            } catch (InterruptedException e) {
                // the test is over
            }
        }, "vault-holder");
        holder.setDaemon(true);
        holder.start();
        try (OpenLoopLoad load = new OpenLoopLoad()) {
            load.send("vault", URI.create("http://127.0.0.1:" + port + "/vault"), 20);
            load.send("calm", URI.create("http://127.0.0.1:" + port + "/calm"), 20);
            load.send("burn", URI.create("http://127.0.0.1:" + port + "/burn"), 4);
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).until(() -> profiler.profiles()
                    .stream().anyMatch(p -> p.trigger() == SessionTrigger.LATENCY));
        } finally {
            holder.interrupt();
        }
        Profile p = profiler.profiles().stream().filter(x -> x.trigger() == SessionTrigger.LATENCY).findFirst()
                .orElseThrow();
        double truth = WAITED_NANOS.get() / 1e6 / VAULT_REQUESTS.get();

        HttpClient client = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + port + "/actuator/cpuprofiler/" + p.id();
        JsonNode json = JsonMapper.builder().build().readTree(client.send(HttpRequest.newBuilder(URI.create(base))
                .build(), HttpResponse.BodyHandlers.ofString()).body());
        System.out.println("LatencyTriggerTest: truth " + truth + " ms waited per /vault request; latency "
                + json.path("latency"));
        assertThat(json.path("trigger").asString()).isEqualTo("LATENCY");
        JsonNode vault = endpoint(json, "GET /vault");
        JsonNode calm = endpoint(json, "GET /calm");
        assertThat(vault.path("verdict").asString()).isEqualTo("WAIT");
        assertThat(vault.path("waits").path(0).path("kind").asString()).isEqualTo("LOCK");
        assertThat(vault.path("waits").path(0).path("frame").asString())
                .isEqualTo(Endpoints.class.getName() + ".vault");
        // Waits of at least 2 ms are recorded; this lock's are 0-200 ms, 100 on average: the sum is near the truth.
        assertThat(vault.path("waitMillisPerRequest").asDouble()).isBetween(truth * 0.8, truth * 1.2);
        assertThat(calm.path("verdict").asString()).isEqualTo("UNCHANGED");
        JsonNode burn = endpoint(json, "GET /burn");
        // CPU alone, or BOTH where the other test JVM kept this one waiting for a CPU: time spent runnable is neither
        // sampled nor recorded as a wait, and with the process's own CPUs not saturated it counts as waiting unseen.
        assertThat(burn.path("verdict").asString()).as("%s", burn).isIn("CPU", "BOTH");
        assertThat(burn.path("cpuMillisPerRequest").asDouble()).as("%s", burn).isGreaterThan(100);
        assertThat(json.path("hotMethods").path(0).path("method").asString())
                .isEqualTo(Endpoints.class.getName() + ".spin");
        // Its threads wait only for the odd socket write of a loaded machine.
        assertThat(calm.path("waitMillisPerRequest").asDouble()).isLessThan(truth / 10);

        // The status's latest profile carries it: the status page names the slow endpoint from there.
        JsonNode status = JsonMapper.builder().build().readTree(client.send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + port + "/actuator/cpuprofiler")).build(), HttpResponse.BodyHandlers.ofString())
                .body());
        assertThat(endpoint(status.path("latestProfile"), "GET /vault").path("verdict").asString()).isEqualTo("WAIT");

        String text = client.send(HttpRequest.newBuilder(URI.create(base + "?format=text")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(text).startsWith("Why requests got slow\n")
                .contains("GET /vault: slow by waiting")
                .contains("GET /burn: slow by")
                .contains("on a lock at " + Endpoints.class.getName() + ".vault")
                .contains("Not slow: GET /calm");
    }

    private static JsonNode endpoint(JsonNode profile, String name) {
        for (JsonNode e : profile.path("latency").path("endpoints")) {
            if (e.path("endpoint").asString().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no " + name + " in " + profile.path("latency"));
    }
}
