package dev.cpuprofiler.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import dev.cpuprofiler.fixtures.PyroscopeStandIn;
import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
import tools.jackson.databind.json.JsonMapper;

/**
 * What a user's test suite, or Spring devtools restarting the application, does to the starter: twenty application
 * contexts (real {@code SpringApplication}s with the starter's auto-configuration, Actuator and Micrometer's simple
 * registry) opened and closed one after the other in one JVM. Most are non-web and idle; a few record a 1-s on-demand
 * profile (one of them over HTTP, in a web application writing the output directory), one is closed while its
 * look-back records, a web application is closed while a session records (its profile is kept), and one pushes its
 * profile to a local Pyroscope stand-in. Afterwards nothing of theirs is left: no thread of the starter's or of
 * its exporter's HTTP client, no JFR recording, no private work directory, no registry in Micrometer's global one and
 * no profiler.* meter in it or in a registry that outlives the contexts, no more open file descriptors than before the
 * first context (within {@link #FD_TOLERANCE}); and every close() returned within {@link #CLOSE_BOUND}.
 *
 * <p>Not judged: whether the closed contexts can be garbage-collected. A web context whose actuator endpoint served a
 * request stays softly reachable through Boot's {@code OnAvailableEndpointCondition} cache, and its closed profiler
 * with it, until memory runs short; {@code System.gc()} does not clear soft references.
 */
class ContextRestartsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Every close() returns within this (the shutdown's own bound, {@link CpuProfilerShutdown#MAX_WAIT}). */
    private static final Duration CLOSE_BOUND = Duration.ofSeconds(5);
    /** How long the threads of the closed contexts may take to end. */
    private static final Duration THREADS_END = Duration.ofSeconds(10);
    /**
     * Open file descriptors allowed above the count before the first context: 1 for async-profiler's
     * {@code /proc/self/task}, which it opens at its first recording in a JVM and keeps for the JVM's life (once per
     * JVM, not per context), and 1 for the spread. The spread measured, 20 readings before the first context: 0 on JDK
     * 17 and 25, alone in the JVM and in a fork shared with other test classes; once 1, on a loaded machine (each
     * reading judged is the lowest of five, so a descriptor open for an instant does not count). Measured after the
     * twentieth close: +1 on JDK 17 (async-profiler's), +0 on JDK 25. One descriptor more per context would be 19 or
     * more above; the exporter's HTTP client held 4 (its selector's epoll and eventfd, both ends of its kept-alive
     * connection to the stand-in) until it was garbage-collected.
     */
    private static final int FD_TOLERANCE = 2;
    /** The names of the threads the starter starts (prefixes): see {@link #threadsOfTheStarter}. */
    private static final List<String> PROFILER_THREADS = List.of("cpuprofiler-");
    private static final String HTTP_CLIENT_THREADS = "HttpClient-";

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {
    }

    /** What a context does while it is open. */
    enum Kind {
        IDLE, PROFILE, WEB_PROFILE_OVER_HTTP_WRITING_OUTPUT, LOOKBACK_RECORDING_AT_CLOSE, WEB_CLOSED_MID_SESSION,
        EXPORT
    }

    private static final List<Kind> CONTEXTS = List.of(Kind.IDLE, Kind.IDLE, Kind.PROFILE, Kind.IDLE,
            Kind.WEB_PROFILE_OVER_HTTP_WRITING_OUTPUT, Kind.IDLE, Kind.LOOKBACK_RECORDING_AT_CLOSE, Kind.IDLE,
            Kind.IDLE, Kind.IDLE, Kind.PROFILE, Kind.IDLE, Kind.IDLE, Kind.IDLE, Kind.IDLE,
            Kind.WEB_CLOSED_MID_SESSION, Kind.EXPORT, Kind.IDLE, Kind.IDLE, Kind.IDLE);

    @TempDir
    Path output;

    private final OwnThreadGroup own = new OwnThreadGroup();
    private final AtomicBoolean burning = new AtomicBoolean();

    @Test
    void twentyContextsOpenedAndClosedInOneJvmLeaveNothingBehind() throws Exception {
        assertThat(CONTEXTS).hasSize(20);
        boolean fdsReadable = Files.isDirectory(Path.of("/proc/self/fd"));
        if (!fdsReadable) {
            System.out.println("ContextRestartsTest: file descriptors not checked: no /proc/self/fd on this OS");
        }
        String jfrMissing = jfrMissing();
        if (jfrMissing != null) {
            System.out.println("ContextRestartsTest: JFR recordings not checked and no session records with JFR: "
                    + jfrMissing);
        }
        String jfrEngine = jfrMissing != null ? "auto"
                : Runtime.version().feature() >= 25 ? "jfr-cpu-time" : "jfr-execution";

        // The Pyroscope stand-in, started before the baseline and stopped after the last reading: its own descriptors
        // are in both.
        PyroscopeStandIn pyroscope = new PyroscopeStandIn();
        List<String> pushed = pyroscope.pushes();
        SimpleMeterRegistry outliving = new SimpleMeterRegistry();
        Metrics.addRegistry(outliving);
        List<ConfigurableApplicationContext> open = new ArrayList<>();
        try {
            openJdkOnceOnlyDescriptors(jfrMissing == null);
            // Whatever other tests left in this JVM (cached contexts, their recordings, registries, work directories)
            // is there before and after: only what appeared in between is judged.
            Set<MeterRegistry> registriesBefore = Set.copyOf(Metrics.globalRegistry.getRegistries());
            Set<Long> recordingsBefore = recordingIds();
            Set<Path> workDirectoriesBefore = workDirectories();
            int fdsBefore = fdsReadable ? fdCount() : -1;
            int fdSpread = fdsReadable ? fdSpread() : -1;

            long[] closeNanos = new long[CONTEXTS.size()];
            long began = System.nanoTime();
            for (int i = 0; i < CONTEXTS.size(); i++) {
                closeNanos[i] = openUseAndClose(CONTEXTS.get(i), jfrEngine, pyroscope, pushed, open);
            }
            long contextsMillis = (System.nanoTime() - began) / 1_000_000;

            // Every close returned soon.
            int slowest = 0;
            for (int i = 0; i < closeNanos.length; i++) {
                if (closeNanos[i] > closeNanos[slowest]) {
                    slowest = i;
                }
            }
            System.out.printf("ContextRestartsTest: %d contexts in %d ms; the slowest close() %d ms (context %d, %s)%n",
                    CONTEXTS.size(), contextsMillis, closeNanos[slowest] / 1_000_000, slowest + 1,
                    CONTEXTS.get(slowest));
            for (int i = 0; i < closeNanos.length; i++) {
                assertThat(Duration.ofNanos(closeNanos[i])).as("close() of context %d (%s)", i + 1, CONTEXTS.get(i))
                        .isLessThan(CLOSE_BOUND);
            }

            // No thread of the starter's (the profiler's and the exporter's) is left, nor of the exporter's HTTP
            // client (see exporterClosed). Only this test's contexts run in its thread group: contexts other tests
            // cached in this JVM run threads of the same names.
            waitAtMost(THREADS_END).untilAsserted(() -> assertThat(threadsOfTheStarter())
                    .as("threads of the closed contexts' profilers and exporter").isEmpty());
            waitAtMost(THREADS_END).untilAsserted(() -> assertThat(own.alive(HTTP_CLIENT_THREADS))
                    .as("threads of the exporter's HTTP client").isEmpty());
            List<String> others = own.alive("").stream().map(Thread::getName).toList();
            if (!others.isEmpty()) {
                System.out.println("ContextRestartsTest: other threads the contexts started, not the starter's: "
                        + others);
            }

            // No JFR recording of the starter's: the sessions', the look-back's streams, the one that keeps JFR's
            // periodic thread asleep. Asking for the recordings initialises JFR, so only where something did.
            if (jfrMissing == null && FlightRecorder.isInitialized()) {
                assertThat(FlightRecorder.getFlightRecorder().getRecordings().stream()
                        .filter(r -> !recordingsBefore.contains(r.getId()))
                        .map(r -> r.getName() + " (" + r.getState() + ")"))
                        .as("JFR recordings the contexts left").isEmpty();
            }

            assertThat(workDirectories()).as("the profilers' private work directories")
                    .containsExactlyInAnyOrderElementsOf(workDirectoriesBefore);

            // Boot 4.1 adds each context's registry to the global one (management.metrics.use-global-registry is
            // true by default; each context's was there while it was open) and removes it when the context closes
            // (MeterRegistryCloser): none of them is left, so none of their profiler.* meters. Nor is any registered
            // on the global registry itself, or on a registry that outlives the contexts (one of the global's: what
            // is registered through the global registry is registered on each of its members).
            assertThat(Metrics.globalRegistry.getRegistries()).as("registries in Micrometer's global registry")
                    .containsExactlyInAnyOrderElementsOf(registriesBefore);
            assertThat(profilerMeters(Metrics.globalRegistry)).as("meters of Metrics.globalRegistry").isEmpty();
            assertThat(profilerMeters(outliving)).as("meters of a registry that outlives the contexts").isEmpty();

            // As many file descriptors open as before the first context, within the tolerance: the readings settle
            // within a second or two (a web server's sockets close as its threads end).
            if (fdsReadable) {
                int bound = fdsBefore + FD_TOLERANCE;
                AtomicReference<Integer> after = new AtomicReference<>();
                try {
                    waitAtMost(Duration.ofSeconds(5)).until(() -> {
                        after.set(fdCount());
                        return after.get() <= bound;
                    });
                } finally {
                    System.out.printf("ContextRestartsTest: %d file descriptors open before the first context "
                            + "(spread of 20 readings %d), %d after the last (at most %d)%n", fdsBefore, fdSpread,
                            after.get(), bound);
                }
            }
        } finally {
            for (ConfigurableApplicationContext context : open) {
                context.close();
            }
            Metrics.removeRegistry(outliving);
            pyroscope.close();
            burning.set(false);
        }
    }

    /** One context's life, closed from this test's thread group; returns how long its close() took. */
    private long openUseAndClose(Kind kind, String jfrEngine, PyroscopeStandIn pyroscope, List<String> pushed,
            List<ConfigurableApplicationContext> open) throws Exception {
        ConfigurableApplicationContext context = start(kind, jfrEngine, pyroscope);
        open.add(context);
        String id = use(context, kind, pushed);
        CpuProfiler profiler = context.getBean(CpuProfiler.class);
        long before = System.nanoTime();
        own.run(context::close);
        long nanos = System.nanoTime() - before;
        open.remove(context);
        if (kind == Kind.WEB_CLOSED_MID_SESSION) {
            // Closed mid-session, the profile is kept, as the user asked for it.
            Profile kept = profiler.profile(id).orElseThrow();
            assertThat(kept.recording().notes()).first().asString().startsWith(CpuProfiler.CUT_SHORT_BY_SHUTDOWN);
        }
        if (kind == Kind.EXPORT) {
            exporterClosed();
        }
        return nanos;
    }

    /**
     * What the exporter's HTTP client leaves, judged right after its context's close, before a garbage collection
     * could reclaim the client and hide it. From Java 21 the exporter shuts the client down: nothing of it is left.
     * Before, nothing can shut a client down: its selector thread and kept-alive connection end once the closed
     * context's client is garbage-collected, and nothing else of it may wait for that (its worker threads did,
     * HttpClient-N-Worker-M); the rest is judged after the last context, garbage collected here.
     */
    private void exporterClosed() {
        if (Runtime.version().feature() >= 21) {
            waitAtMost(THREADS_END).untilAsserted(() -> assertThat(own.alive(HTTP_CLIENT_THREADS))
                    .as("threads of the exporter's HTTP client").isEmpty());
            return;
        }
        assertThat(own.alive(HTTP_CLIENT_THREADS)).extracting(Thread::getName)
                .as("threads of the exporter's HTTP client, before a garbage collection")
                .allMatch(name -> name.endsWith("-SelectorManager"));
        System.out.println("ContextRestartsTest: Java " + Runtime.version().feature() + " cannot shut an HttpClient "
                + "down (Java 21 can): garbage collected before judging its selector thread, its connection and the "
                + "file descriptors");
        System.gc();
    }

    /** Starts a context of that kind from this test's thread group; every property is one a user could set. */
    private ConfigurableApplicationContext start(Kind kind, String jfrEngine, PyroscopeStandIn pyroscope)
            throws Exception {
        List<String> properties = new ArrayList<>(List.of("spring.main.banner-mode=off", "logging.level.root=warn"));
        if (kind == Kind.WEB_PROFILE_OVER_HTTP_WRITING_OUTPUT || kind == Kind.WEB_CLOSED_MID_SESSION) {
            properties.addAll(List.of("server.port=0", "management.endpoints.web.exposure.include=cpuprofiler",
                    "management.endpoint.cpuprofiler.access=unrestricted"));
        } else {
            properties.add("spring.main.web-application-type=none");
        }
        switch (kind) {
            case WEB_PROFILE_OVER_HTTP_WRITING_OUTPUT -> properties.addAll(List.of("profiler.cpu.engine=" + jfrEngine,
                    "profiler.cpu.output-directory=" + output));
            case WEB_CLOSED_MID_SESSION -> properties.add("profiler.cpu.engine=" + jfrEngine);
            case LOOKBACK_RECORDING_AT_CLOSE -> properties.addAll(List.of("profiler.cpu.engine=" + jfrEngine,
                    // Armed at once, above 1% CPU over the last 0.5 s; no session of its own: the CPU trigger needs
                    // more than 100%, the saturation trigger (the burning thread pins a core) and the reference of
                    // normal are off.
                    "profiler.cpu.startup-grace=0", "profiler.cpu.threshold=100",
                    "profiler.cpu.lookback-arming-ratio=0.01", "profiler.cpu.sampling-interval=200ms",
                    "profiler.cpu.polling-interval=200ms", "profiler.cpu.rolling-history-interval=1s",
                    "profiler.cpu.average-window=2s", "profiler.cpu.saturation.enabled=false",
                    "profiler.cpu.reference.enabled=false"));
            case EXPORT -> properties.add("profiler.cpu.export.pyroscope.url=" + pyroscope.url());
            default -> {
            }
        }
        AtomicReference<ConfigurableApplicationContext> started = new AtomicReference<>();
        own.run(() -> started.set(new SpringApplicationBuilder(App.class)
                .properties(properties.toArray(String[]::new)).run()));
        return started.get();
    }

    /** What a context of that kind does while open; returns the id of the session it leaves recording, if any. */
    private String use(ConfigurableApplicationContext context, Kind kind, List<String> pushed) throws Exception {
        CpuProfiler profiler = context.getBean(CpuProfiler.class);
        MeterRegistry registry = context.getBean(MeterRegistry.class);
        // What is judged absent afterwards is here while the context is open.
        assertThat(profiler.status().state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
        assertThat(registry.find("profiler.cpu.usage").gauge()).isNotNull();
        assertThat(Metrics.globalRegistry.getRegistries()).contains(registry);
        // Started by the profiler's start thread, after start() returned.
        waitAtMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(threadsOfTheStarter())
                .extracting(Thread::getName).contains("cpuprofiler-sampler"));
        switch (kind) {
            case PROFILE, EXPORT -> {
                SessionOutcome outcome = burningWhile(() -> profiler.startOnDemand(Duration.ofSeconds(1)).outcome()
                        .toCompletableFuture().get(30, TimeUnit.SECONDS));
                assertThat(outcome.failed()).as(outcome.reason()).isFalse();
                if (kind == Kind.EXPORT) {
                    waitAtMost(Duration.ofSeconds(15)).until(() -> !pushed.isEmpty());
                    assertThat(pushed).singleElement().asString().startsWith("/ingest?");
                    assertThat(threadsOfTheStarter()).extracting(Thread::getName).contains("cpuprofiler-export");
                    assertThat(own.alive(HTTP_CLIENT_THREADS)).as("the exporter's HTTP client").isNotEmpty();
                }
            }
            case WEB_PROFILE_OVER_HTTP_WRITING_OUTPUT -> {
                String base = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
                String id = burningWhile(() -> {
                    String session = JSON.readTree(post(base + "/actuator/cpuprofiler", "{\"duration\": \"1s\"}"))
                            .path("id").asString();
                    waitAtMost(Duration.ofSeconds(30)).until(() -> profiler.profile(session).isPresent());
                    return session;
                });
                try (Stream<Path> files = Files.list(output)) {
                    assertThat(files.map(f -> f.getFileName().toString())).as("the output directory")
                            .anyMatch(name -> name.startsWith(id));
                }
            }
            case LOOKBACK_RECORDING_AT_CLOSE -> {
                boolean armed = burningWhile(() -> {
                    try {
                        waitAtMost(Duration.ofSeconds(10)).until(() -> profiler.status().lookback().state()
                                == CpuProfilerStatus.LookbackState.ARMED);
                        return true;
                    } catch (org.awaitility.core.ConditionTimeoutException e) {
                        return false;
                    }
                });
                if (!armed) {
                    System.out.println("ContextRestartsTest: the look-back did not arm (" + profiler.status()
                            .lookback() + "): context closed without its recording");
                }
            }
            case WEB_CLOSED_MID_SESSION -> {
                RunningSession session = profiler.startOnDemand(Duration.ofMinutes(5));
                burningWhile(() -> {
                    waitAtMost(Duration.ofSeconds(30)).until(() -> session.samplesSoFar() > 0);
                    return null;
                });
                assertThat(session.isDone()).isFalse();
                return session.id();
            }
            default -> {
            }
        }
        return null;
    }

    /** Awaitility's wait, polling every 20 ms from the start: nothing here takes long. */
    private static org.awaitility.core.ConditionFactory waitAtMost(Duration timeout) {
        return await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).atMost(timeout);
    }

    /** The live threads the starter started in this test's contexts; see {@link #PROFILER_THREADS}. */
    private List<Thread> threadsOfTheStarter() {
        // The profiler's: cpuprofiler-sampler, -policy, -launch, -session, -concurrency, -lookback-stream,
        // -flamegraph; the exporter's: cpuprofiler-export and its HTTP client's pool, cpuprofiler-http-N.
        return PROFILER_THREADS.stream().flatMap(prefix -> own.alive(prefix).stream()).toList();
    }

    @FunctionalInterface
    private interface Work<T> {
        T run() throws Exception;
    }

    /** Runs the work while a thread of the application's burns a CPU, so that every profile has samples. */
    private <T> T burningWhile(Work<T> work) throws Exception {
        burning.set(true);
        Thread burner = new Thread(() -> {
            long x = 0;
            while (burning.get()) {
                for (int i = 0; i < 100_000; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
            }
            if (x == 42) {
                System.out.println();
            }
        }, "application-worker");
        burner.setDaemon(true);
        burner.start();
        try {
            return work.run();
        } finally {
            burning.set(false);
            burner.join(5000);
        }
    }

    /** A POST that closes its connection: no kept-alive socket of the test's is counted afterwards. */
    private static String post(String url, String json) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
        try {
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", "application/json");
            c.setRequestProperty("Connection", "close");
            try (OutputStream out = c.getOutputStream()) {
                out.write(json.getBytes(StandardCharsets.UTF_8));
            }
            assertThat(c.getResponseCode()).isEqualTo(200);
            return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            c.disconnect();
        }
    }

    /**
     * Descriptors the JDK opens once in a JVM and keeps, opened here before the baseline so that the bound measures
     * the starter, not the JDK: NIO's pre-close socket (made by the first FileChannel) and, on Java 17, the two
     * directory streams of {@code lib/jfr} that {@code jdk.jfr.Configuration} never closes (the profiler reads the
     * bundled settings that way to decide on an engine without initialising JFR). Neither initialises JFR.
     */
    private static void openJdkOnceOnlyDescriptors(boolean jfr) throws Exception {
        try (FileChannel channel = FileChannel.open(Path.of(System.getProperty("java.home"), "release"))) {
            channel.size();
        }
        if (jfr) {
            jdk.jfr.Configuration.getConfiguration("default");
        }
    }

    /** Why JFR cannot record here, or null. */
    private static String jfrMissing() {
        if (ModuleLayer.boot().findModule("jdk.jfr").isEmpty()) {
            return "no jdk.jfr module in this runtime";
        }
        return FlightRecorder.isAvailable() ? null : "JFR is not available in this JVM";
    }

    private static Set<Long> recordingIds() {
        Set<Long> ids = new HashSet<>();
        if (jfrMissing() == null && FlightRecorder.isInitialized()) {
            for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
                ids.add(r.getId());
            }
        }
        return ids;
    }

    /** The profilers' private work directories in java.io.tmpdir: cpuprofiler-PID-*. */
    private static Set<Path> workDirectories() throws IOException {
        String prefix = "cpuprofiler-" + ProcessHandle.current().pid() + "-";
        try (Stream<Path> entries = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return entries.filter(p -> p.getFileName().toString().startsWith(prefix)).collect(
                    java.util.stream.Collectors.toSet());
        }
    }

    /** The registry's own profiler.* meters (of a composite, those registered through it, not its members'). */
    private static List<String> profilerMeters(MeterRegistry registry) {
        return registry.getMeters().stream().map(Meter::getId).filter(id -> id.getName().startsWith("profiler."))
                .map(Meter.Id::toString).toList();
    }

    /** The lowest of five readings of the open descriptors: a descriptor open for an instant is not counted. */
    private static int fdCount() throws Exception {
        int lowest = Integer.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            lowest = Math.min(lowest, rawFdCount());
            Thread.sleep(10);
        }
        return lowest;
    }

    /** The spread of 20 raw readings over about a quarter of a second. */
    private static int fdSpread() throws Exception {
        int lowest = Integer.MAX_VALUE;
        int highest = Integer.MIN_VALUE;
        for (int i = 0; i < 20; i++) {
            int n = rawFdCount();
            lowest = Math.min(lowest, n);
            highest = Math.max(highest, n);
            Thread.sleep(10);
        }
        return highest - lowest;
    }

    private static int rawFdCount() throws IOException {
        try (Stream<Path> entries = Files.list(Path.of("/proc/self/fd"))) {
            return (int) entries.count();
        }
    }
}
