package dev.cpuprofiler.autoconfigure.requests;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One run of {@link TwoKernelsApplication} under HTTP load from clients in the same JVM: an on-demand profile with
 * the given engine, and where each kernel's samples sit; {@link TwoKernelsChild} runs it in a child JVM (another JDK,
 * virtual threads).
 */
final class TwoKernelsRun {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    /**
     * What a run found: the profile, each kernel's samples by the endpoint group above them, and what the endpoint
     * served for it over HTTP ({@code format=collapsed&group=endpoint}, {@code format=pprof}).
     */
    record Result(Profile profile, Map<String, Long> alpha, Map<String, Long> beta, String collapsedByEndpoint,
            byte[] pprof) {

        /** The share of alphaKernel's samples under its own endpoint (0 when there are none). */
        double alphaShare() {
            return share(alpha, "GET /alpha/{n}");
        }

        double betaShare() {
            return share(beta, "GET /beta");
        }

        /** alphaKernel's samples, under any endpoint. */
        long alphaSamples() {
            return alpha.values().stream().mapToLong(Long::longValue).sum();
        }

        long betaSamples() {
            return beta.values().stream().mapToLong(Long::longValue).sum();
        }

        /** The share of alphaKernel's samples under the other endpoint: attributed to the wrong request. */
        double alphaUnderBeta() {
            return share(alpha, "GET /beta");
        }

        double betaUnderAlpha() {
            return share(beta, "GET /alpha/{n}");
        }

        @Override
        public String toString() {
            return "engine=" + profile.recording().engine() + " endpoints=" + profile.requests().endpoints()
                    + " alphaKernel=" + alpha + " betaKernel=" + beta + " notes=" + profile.recording().notes();
        }
    }

    private TwoKernelsRun() {
    }

    static Result run(String engine, boolean virtualThreads, Duration duration) throws Exception {
        return run(engine, virtualThreads, duration, WebApplicationType.SERVLET);
    }

    /** As above, with Spring MVC ({@code SERVLET}) or WebFlux ({@code REACTIVE}, on Netty). */
    static Result run(String engine, boolean virtualThreads, Duration duration, WebApplicationType web)
            throws Exception {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(TwoKernelsApplication.class).web(web)
                .properties("server.port=0", "profiler.cpu.enabled=false", "profiler.cpu.engine=" + engine,
                        "spring.main.banner-mode=off", "spring.threads.virtual.enabled=" + virtualThreads,
                        "management.endpoints.web.exposure.include=cpuprofiler")
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
                String id = profiler.startOnDemand(duration).id();
                long deadline = System.nanoTime() + duration.plusSeconds(60).toNanos();
                while (profiler.profile(id).isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                Profile profile = profiler.profile(id).orElseThrow(() -> new IllegalStateException(
                        "no profile " + id + ": " + profiler.status()));
                String base = "http://localhost:" + port + "/actuator/cpuprofiler/" + id;
                return new Result(profile, kernelUnder(profile.requests().endpointTree(), "alphaKernel"),
                        kernelUnder(profile.requests().endpointTree(), "betaKernel"),
                        new String(fetch(base + "?format=collapsed&group=endpoint"), StandardCharsets.UTF_8),
                        fetch(base + "?format=pprof"));
            } finally {
                loading.set(false);
                for (Thread t : clients) {
                    t.join();
                }
            }
        }
    }

    /** Samples in frames naming the kernel (and below them), by the endpoint frame at the top of their stack. */
    static Map<String, Long> kernelUnder(StackTreeSnapshot tree, String kernel) {
        Map<String, Long> by = new HashMap<>();
        if (tree == null) {
            return by;
        }
        for (int top = tree.firstChild(0); top > 0; top = tree.nextSibling(top)) {
            long n = 0;
            for (int node = top; node < tree.subtreeEnd(top); node++) {
                if (tree.frame(node).contains(kernel) && !tree.frame(tree.parent(node)).contains(kernel)) {
                    n += tree.total(node);
                }
            }
            if (n > 0) {
                by.put(tree.frame(top), n);
            }
        }
        return by;
    }

    private static double share(Map<String, Long> by, String endpoint) {
        long total = by.values().stream().mapToLong(Long::longValue).sum();
        return total == 0 ? 0 : by.getOrDefault(endpoint, 0L) / (double) total;
    }

    /** The body of a 200; else {@code HTTP <status>: <body>}. */
    private static byte[] fetch(String url) throws Exception {
        HttpResponse<byte[]> r = CLIENT.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        return r.statusCode() == 200 ? r.body() : ("HTTP " + r.statusCode() + ": "
                + new String(r.body(), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
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
