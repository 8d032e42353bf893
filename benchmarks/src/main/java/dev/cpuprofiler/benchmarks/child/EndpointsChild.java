package dev.cpuprofiler.benchmarks.child;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.benchmarks.app.BenchApplication;
import dev.cpuprofiler.benchmarks.app.EndpointCpuFilter;
import dev.cpuprofiler.benchmarks.app.EndpointKernelsController;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One CPU-by-endpoint run in its own JVM: the bench app ({@link EndpointKernelsController}) under HTTP load from 3
 * clients in this JVM, an on-demand profile, then one line {@code RESULT {json}}: each endpoint's share of the two
 * endpoints' samples against the truth (the profile's request counts × each request's CPU, measured on this
 * request's own CPU), and how much of each kernel's samples sits under its own endpoint. On platform threads the truth
 * is measured: {@link EndpointCpuFilter} sums each request's CPU on its thread's clock while the profile records. On
 * virtual threads, which have no CPU clock here, it is the profile's request counts × each endpoint's CPU per request
 * as a platform-thread run of the same JVM measured it (given on the command line).
 *
 * <p>Usage: {@code EndpointsChild <engine> <virtualThreads> <warmUpSeconds> <profileSeconds> [<alphaCpuMicros>
 * <betaCpuMicros>]}.
 */
public final class EndpointsChild {

    private static final String ALPHA = "GET /bench/endpoints/alpha/{n}";
    private static final String BETA = "GET /bench/endpoints/beta";

    private EndpointsChild() {
    }

    public static void main(String[] args) throws Exception {
        String engine = args[0];
        boolean virtual = Boolean.parseBoolean(args[1]);
        double warmUp = Double.parseDouble(args[2]);
        double seconds = Double.parseDouble(args[3]);
        double kernelAlpha = cpuPerCall(EndpointKernelsController::alphaWork);
        double kernelBeta = cpuPerCall(EndpointKernelsController::betaWork);

        ConfigurableApplicationContext app = SpringApplication.run(BenchApplication.class, "--server.port=0",
                "--spring.main.banner-mode=off", "--logging.level.root=WARN", "--profiler.cpu.enabled=false",
                "--profiler.cpu.engine=" + engine, "--spring.threads.virtual.enabled=" + virtual);
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        CpuProfiler profiler = app.getBean(CpuProfiler.class);
        HttpClient client = HttpClient.newHttpClient();
        AtomicBoolean loading = new AtomicBoolean(true);
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            int first = c;
            Thread t = new Thread(() -> {
                for (long i = first; loading.get(); i++) {
                    String path = i % 2 == 0 ? "/bench/endpoints/alpha/" + i : "/bench/endpoints/beta";
                    try {
                        client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                                HttpResponse.BodyHandlers.discarding());
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "load-" + c);
            t.start();
            clients.add(t);
        }
        Thread.sleep((long) (warmUp * 1000));
        EndpointCpuFilter truth = app.getBean(EndpointCpuFilter.class);
        truth.reset();
        String id = profiler.startOnDemand(Duration.ofMillis((long) (seconds * 1000))).id();
        long deadline = System.nanoTime() + (long) ((seconds + 60) * 1e9);
        while (profiler.profile(id).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        loading.set(false);
        for (Thread t : clients) {
            t.join();
        }
        Profile p = profiler.profile(id).orElseThrow();
        EndpointShare a = share(p, ALPHA);
        EndpointShare b = share(p, BETA);
        double measuredAlpha = a == null || b == null ? Double.NaN : 100.0 * a.samples() / (a.samples() + b.samples());
        // CPU per request: measured on the request threads' clocks, or given (virtual threads).
        double alphaCpu = truth.measuredRequests(0) > 0 ? truth.cpuNanos(0) / (double) truth.measuredRequests(0)
                : args.length > 5 ? Double.parseDouble(args[4]) * 1e3 : Double.NaN;
        double betaCpu = truth.measuredRequests(1) > 0 ? truth.cpuNanos(1) / (double) truth.measuredRequests(1)
                : args.length > 5 ? Double.parseDouble(args[5]) * 1e3 : Double.NaN;
        double truthAlpha = a == null || b == null || a.requests() == null || b.requests() == null ? Double.NaN
                : 100.0 * a.requests() * alphaCpu / (a.requests() * alphaCpu + b.requests() * betaCpu);
        double alphaOwn = own(p.requests().endpointTree(), "alphaWork", ALPHA);
        double betaOwn = own(p.requests().endpointTree(), "betaWork", BETA);
        System.out.println("RESULT " + String.format(Locale.ROOT, "{\"engine\": \"%s\", \"virtual\": %s, "
                + "\"java\": \"%s\", \"samples\": %d, \"alphaSamples\": %d, \"betaSamples\": %d, "
                + "\"alphaRequests\": %d, \"betaRequests\": %d, \"alphaCpuMicros\": %.1f, \"betaCpuMicros\": %.1f, "
                + "\"alphaPercent\": %.2f, \"truthAlphaPercent\": %.2f, \"alphaOwnPercent\": %.2f, "
                + "\"betaOwnPercent\": %.2f, \"noRequestPercent\": %.2f, \"kernelAlphaMicros\": %.1f, "
                + "\"kernelBetaMicros\": %.1f, \"truthMeasured\": %s}", p.recording().engine(), virtual,
                Runtime.version(),
                p.recording().samples(), a == null ? 0 : a.samples(), b == null ? 0 : b.samples(),
                a == null || a.requests() == null ? 0 : a.requests(), b == null || b.requests() == null ? 0
                        : b.requests(), alphaCpu / 1e3, betaCpu / 1e3, measuredAlpha, truthAlpha, alphaOwn, betaOwn,
                p.requests().endpoints().stream().filter(e -> e.endpoint().equals("[no request]")).mapToDouble(
                        EndpointShare::percent).sum(), kernelAlpha / 1e3, kernelBeta / 1e3,
                truth.measuredRequests(0) > 0));
        System.out.flush();
        app.close();
        System.exit(0);
    }

    /** CPU nanoseconds of one call, on this thread's CPU clock, after a warm-up. */
    private static double cpuPerCall(LongSupplier work) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (int i = 0; i < 2_000; i++) {
            sink ^= work.getAsLong();
        }
        int calls = 2_000;
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < calls; i++) {
            sink ^= work.getAsLong();
        }
        double perCall = (threads.getCurrentThreadCpuTime() - start) / (double) calls;
        return sink == 42 ? perCall + 1e-9 : perCall;
    }

    private static EndpointShare share(Profile p, String endpoint) {
        return p.requests().endpoints().stream().filter(e -> e.endpoint().equals(endpoint)).findFirst().orElse(null);
    }

    /** The share (%) of a kernel's samples that sit under the given endpoint frame. */
    private static double own(StackTreeSnapshot tree, String kernel, String endpointFrame) {
        if (tree == null) {
            return Double.NaN;
        }
        long all = 0;
        long own = 0;
        for (int top = tree.firstChild(0); top > 0; top = tree.nextSibling(top)) {
            for (int node = top; node < tree.subtreeEnd(top); node++) {
                if (tree.frame(node).endsWith(kernel) && !tree.frame(tree.parent(node)).endsWith(kernel)) {
                    all += tree.total(node);
                    own += tree.frame(top).equals(endpointFrame) ? tree.total(node) : 0;
                }
            }
        }
        return all == 0 ? Double.NaN : 100.0 * own / all;
    }
}
