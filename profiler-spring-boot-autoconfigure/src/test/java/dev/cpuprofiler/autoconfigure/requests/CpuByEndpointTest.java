package dev.cpuprofiler.autoconfigure.requests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.StackTreeSnapshot;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * CPU by endpoint on a real Spring MVC application under HTTP load, with each engine JDK 17 has: the profile names
 * both endpoints by their URI templates, counts their requests, and each kernel's samples sit under its own endpoint.
 */
class CpuByEndpointTest {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @ParameterizedTest
    @ValueSource(strings = {"jfr-execution", "async-profiler"})
    void eachKernelSitsUnderItsOwnEndpoint(String engine) throws Exception {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(TwoKernelsApplication.class)
                .properties("server.port=0", "profiler.cpu.enabled=false", "profiler.cpu.engine=" + engine,
                        "spring.main.banner-mode=off")
                .run()) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            CpuProfiler profiler = app.getBean(CpuProfiler.class);
            AtomicBoolean loading = new AtomicBoolean(true);
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                int client = c;
                Thread t = new Thread(() -> {
                    for (int i = 0; loading.get(); i++) {
                        get(port, (i + client) % 2 == 0 ? "/alpha/" + i : "/beta");
                    }
                }, "load-" + c);
                t.start();
                clients.add(t);
            }
            try {
                String id = profiler.startOnDemand(Duration.ofSeconds(3)).id();
                await().atMost(Duration.ofSeconds(60)).until(() -> profiler.profile(id).isPresent());
                Profile profile = profiler.profile(id).orElseThrow();
                Map<String, EndpointShare> endpoints = new HashMap<>();
                profile.endpoints().forEach(e -> endpoints.put(e.endpoint(), e));
                System.out.println("[CpuByEndpoint] " + engine + ": " + profile.endpoints());

                assertThat(endpoints).containsKeys("GET /alpha/{n}", "GET /beta");
                assertThat(endpoints.keySet()).noneMatch(name -> name.matches(".*/alpha/\\d.*"));
                assertThat(endpoints.get("GET /alpha/{n}").requests()).isPositive();
                assertThat(endpoints.get("GET /beta").requests()).isPositive();
                Map<String, Long> alpha = kernelUnder(profile.endpointTree(), "alphaKernel");
                Map<String, Long> beta = kernelUnder(profile.endpointTree(), "betaKernel");
                System.out.println("[CpuByEndpoint] " + engine + ": alphaKernel under " + alpha
                        + ", betaKernel under " + beta);
                assertThat(share(alpha, "[GET /alpha/{n}]")).isGreaterThanOrEqualTo(0.97);
                assertThat(share(beta, "[GET /beta]")).isGreaterThanOrEqualTo(0.97);
            } finally {
                loading.set(false);
                for (Thread t : clients) {
                    t.join();
                }
            }
        }
    }

    /** Samples of frames naming the kernel, by the endpoint frame above them. */
    private static Map<String, Long> kernelUnder(StackTreeSnapshot tree, String kernel) {
        Map<String, Long> by = new HashMap<>();
        for (int top = tree.firstChild(0); top > 0; top = tree.nextSibling(top)) {
            long n = 0;
            for (int node = top; node < tree.subtreeEnd(top); node++) {
                if (tree.frame(node).contains(kernel)) {
                    n += tree.self(node) + childrenOutside(tree, node, kernel);
                }
            }
            if (n > 0) {
                by.put(tree.frame(top), n);
            }
        }
        return by;
    }

    /** Samples below a kernel frame in frames that are not the kernel (e.g. System.nanoTime inside it). */
    private static long childrenOutside(StackTreeSnapshot tree, int node, String kernel) {
        long n = 0;
        for (int c = tree.firstChild(node); c > 0; c = tree.nextSibling(c)) {
            n += tree.frame(c).contains(kernel) ? 0 : tree.total(c);
        }
        return n;
    }

    private static double share(Map<String, Long> by, String endpoint) {
        long total = by.values().stream().mapToLong(Long::longValue).sum();
        return total == 0 ? 0 : by.getOrDefault(endpoint, 0L) / (double) total;
    }

    private static void get(int port, String path) {
        try {
            CLIENT.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (Exception e) {
            // The server is closing; the load ends with it.
        }
    }
}
