package dev.cpuprofiler.realistic;

import java.io.File;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One measurement of the shop, shared by {@code RealisticProfileTest} and {@code RealisticBenchmark}: in a loaded
 * child JVM, either ask the starter for an on-demand profile ({@link #profileWindow}) or record the same window with
 * async-profiler's own agent while the starter is off ({@link #truth}).
 */
final class RealisticRun {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Where things are and how long phases last; system properties set by surefire or benchmarks/realistic.sh. */
    record Settings(String javaHome, String runtimeClasspath, Path agentJar, Path workDirectory, Duration warmUp,
            Duration maxWarmUp, Duration window, int clients) {

        static Settings fromSystemProperties() throws IOException {
            Path classes = Path.of(property("realistic.classesDirectory", "target/classes"));
            Path classpathFile = Path.of(property("realistic.runtimeClasspathFile", "target/runtime-classpath.txt"));
            String runtime = Files.readString(classpathFile, StandardCharsets.UTF_8).strip();
            return new Settings(System.getProperty("java.home"),
                    classes.toAbsolutePath() + File.pathSeparator + runtime,
                    Path.of(property("realistic.agentJar", "target/agent/async-profiler.jar")).toAbsolutePath(),
                    Path.of(property("realistic.workDirectory", "target/realistic")).toAbsolutePath(),
                    Duration.ofSeconds(Long.parseLong(property("realistic.warmUpSeconds", "20"))),
                    Duration.ofSeconds(Long.parseLong(property("realistic.maxWarmUpSeconds", "60"))),
                    Duration.ofSeconds(Long.parseLong(property("realistic.windowSeconds", "15"))),
                    Integer.parseInt(property("realistic.clients", "4")));
        }

        /** These settings for another JDK and other phase lengths. */
        Settings with(String otherJavaHome, Duration otherWarmUp, Duration otherMaxWarmUp, Duration otherWindow) {
            return new Settings(otherJavaHome, runtimeClasspath, agentJar, workDirectory, otherWarmUp, otherMaxWarmUp,
                    otherWindow, clients);
        }

        /** A system property; blank or an unresolved Maven {@code ${...}} counts as unset. */
        static String property(String key, String fallback) {
            String value = System.getProperty(key, "").strip();
            return value.isEmpty() || value.startsWith("${") ? fallback : value;
        }

        /** True when the runtime classpath already holds async-profiler (the starter brings it). */
        boolean runtimeHasAsyncProfiler() {
            return Arrays.stream(runtimeClasspath.split(File.pathSeparator))
                    .anyMatch(entry -> Path.of(entry).getFileName().toString().startsWith("async-profiler-"));
        }

        /** The runtime classpath, plus the async-profiler jar when asked for and not already there. */
        String classpath(boolean withAsyncProfiler) {
            return withAsyncProfiler && !runtimeHasAsyncProfiler()
                    ? runtimeClasspath + File.pathSeparator + agentJar : runtimeClasspath;
        }

        /** The runtime classpath without async-profiler, whoever brings it. */
        String classpathWithoutAsyncProfiler() {
            return String.join(File.pathSeparator, Arrays.stream(runtimeClasspath.split(File.pathSeparator))
                    .filter(entry -> !Path.of(entry).getFileName().toString().startsWith("async-profiler-"))
                    .toList());
        }
    }

    /** What one side measured. */
    record Result(String side, String engine, String engineDetail, long reportedSamples, long truncatedSamples,
            String notes, ProfileFigures figures, double requestsPerSecond, long failedRequests, Path collapsed,
            JsonNode profile) {
    }

    /** The truth could not be taken on this machine (no library for it, attach refused...). */
    static final class TruthUnavailable extends Exception {
        TruthUnavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Settings settings;

    RealisticRun(Settings settings) {
        this.settings = settings;
    }

    Settings settings() {
        return settings;
    }

    /** Starts the app with these Spring Boot arguments and classpath and waits until it is healthy. */
    ChildApp startApp(String name, String classpath, List<String> args) throws Exception {
        ChildApp app = ChildApp.start(name, settings.javaHome(), classpath, settings.workDirectory(), args);
        try {
            app.awaitReady(Duration.ofSeconds(120));
            return app;
        } catch (Exception | Error e) {
            app.close();
            throw e;
        }
    }

    LoadDriver load(ChildApp app, Duration atMost) {
        return new LoadDriver(app.port, settings.clients(), atMost, 5_000_000);
    }

    /** One on-demand profile of the window in a running, loaded app. */
    Result profileWindow(ChildApp app, LoadDriver load, String name, String engine) throws Exception {
        long okBefore = load.completed();
        long failedBefore = load.failed();
        long start = System.nanoTime();
        HttpResponse<String> started = app.postJson("/actuator/cpuprofiler",
                "{\"duration\":\"" + settings.window().toSeconds() + "s\"}");
        if (started.statusCode() != 200) {
            throw new IllegalStateException("POST /actuator/cpuprofiler answered " + started.statusCode() + ": "
                    + started.body());
        }
        Thread.sleep(settings.window().toMillis());
        double rps = (load.completed() - okBefore) * 1e9 / (System.nanoTime() - start);
        long failed = load.failed() - failedBefore;
        // The session's own profile, by the id it started with: an automatic one may end in between.
        String id = text(JSON.readTree(started.body()).path("id"));
        awaitProfile(app, id, Duration.ofSeconds(90));
        HttpResponse<String> collapsed = app.get("/actuator/cpuprofiler/" + id + "?format=collapsed");
        HttpResponse<String> json = app.get("/actuator/cpuprofiler/" + id + "?format=json");
        if (collapsed.statusCode() != 200 || json.statusCode() != 200) {
            throw new IllegalStateException("profile " + id + ": collapsed " + collapsed.statusCode() + ", json "
                    + json.statusCode());
        }
        Path file = settings.workDirectory().resolve(name + ".collapsed");
        Files.writeString(file, collapsed.body(), StandardCharsets.UTF_8);
        JsonNode profile = JSON.readTree(json.body());
        String notes = profile.path("notes").toString() + " fallbacks=" + profile.path("fallbacks").toString();
        return new Result("starter" + (engine == null || engine.isBlank() ? " (default)" : " (" + engine + ")"),
                text(profile.path("engine")), text(profile.path("engineDetail")), profile.path("samples").asLong(),
                profile.path("truncatedSamples").asLong(), notes, ProfileFigures.of(collapsed.body()), rps, failed,
                file, profile);
    }

    /** The truth: the same app, starter off, the same load and warm-up, async-profiler's agent for the window. */
    Result truth(String name) throws Exception {
        AsyncProfilerAgent agent;
        try {
            agent = AsyncProfilerAgent.extract(settings.agentJar(), settings.workDirectory().resolve("agent-lib"));
        } catch (IOException e) {
            throw new TruthUnavailable("async-profiler's agent is not available here: " + e.getMessage(), e);
        }
        Path file = settings.workDirectory().resolve(name + ".collapsed");
        Files.deleteIfExists(file);
        try (ChildApp app = startApp(name, settings.classpath(false), List.of("--profiler.enabled=false"));
                LoadDriver load = load(app, settings.maxWarmUp().plus(settings.window()).plusSeconds(120))) {
            JitWarmUp.await(app.pid(), settings.warmUp(), settings.maxWarmUp());
            long okBefore = load.completed();
            long failedBefore = load.failed();
            long start = System.nanoTime();
            try {
                agent.start(app.pid());
            } catch (Exception e) {
                throw new TruthUnavailable("could not start async-profiler's agent in pid " + app.pid()
                        + " through the Attach API: " + e, e);
            }
            Thread.sleep(settings.window().toMillis());
            agent.stop(app.pid(), file);
            double rps = (load.completed() - okBefore) * 1e9 / (System.nanoTime() - start);
            long failed = load.failed() - failedBefore;
            String collapsed = Files.readString(file, StandardCharsets.UTF_8);
            return new Result("async-profiler agent (truth)", "agent", "event=cpu", -1, -1, "",
                    ProfileFigures.of(collapsed), rps, failed, file, null);
        }
    }

    private static void awaitProfile(ChildApp app, String id, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (app.get("/actuator/cpuprofiler/" + id + "?format=text").statusCode() != 200) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no profile " + id + " within " + timeout + ":\n" + app.logTail(30));
            }
            Thread.sleep(250);
        }
    }

    private static String text(JsonNode node) {
        return node == null || node.isMissingNode() || node.isNull() ? null : node.asString();
    }

    /** The side-by-side table printed to stdout. */
    static String table(Result ours, Result truth) {
        ProfileFigures o = ours.figures();
        ProfileFigures t = truth.figures();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%nRealistic profile, JDK %s (%s)%n", System.getProperty("java.version"),
                System.getProperty("java.home")));
        row(b, "figure", ours.side(), truth.side(), "bound");
        row(b, "---", "---", "---", "---");
        row(b, "engine", ours.engine() + " / " + ours.engineDetail(), "async-profiler agent / event=cpu", "non-null");
        row(b, "samples (collapsed)", Long.toString(o.samples()), Long.toString(t.samples()), ">= 200");
        row(b, "samples / truncated (JSON)", ours.reportedSamples() + " / " + ours.truncatedSamples(), "-", "");
        row(b, "Java samples", Long.toString(o.javaSamples()), Long.toString(t.javaSamples()), "");
        row(b, "idle wait %", ProfileFigures.pct(o.idleWaitPercent()), ProfileFigures.pct(t.idleWaitPercent()),
                t.idleWaitPercent() < 1 ? "<= 2%" : "<= truth + 2");
        row(b, "idle leaves", o.idleLeavesSummary(), t.idleLeavesSummary(), "");
        row(b, "root cut %", ProfileFigures.pct(o.rootCutPercent()), ProfileFigures.pct(t.rootCutPercent()), "<= 5%");
        row(b, "dispatch % of Java", ProfileFigures.pct(o.dispatchPercent()), ProfileFigures.pct(t.dispatchPercent()),
                "truth ± 7");
        row(b, "top self (of Java)", o.topSelfMethod() + " " + ProfileFigures.pct(o.topSelfPercent()),
                t.topSelfMethod() + " " + ProfileFigures.pct(t.topSelfPercent()), "");
        row(b, "request depth p50/p90/max", o.requestDepthMedian() + "/" + o.requestDepthP90() + "/"
                + o.requestDepthMax(),
                t.requestDepthMedian() + "/" + t.requestDepthP90() + "/" + t.requestDepthMax(), "");
        row(b, "requests >= 80 frames", ProfileFigures.pct(o.deepRequestPercent()),
                ProfileFigures.pct(t.deepRequestPercent()), "");
        row(b, "requests/s in the window", String.format(Locale.ROOT, "%.0f (%d failed)", ours.requestsPerSecond(),
                ours.failedRequests()), String.format(Locale.ROOT, "%.0f (%d failed)", truth.requestsPerSecond(),
                truth.failedRequests()), "");
        b.append("notes: ").append(ours.notes()).append('\n');
        b.append("collapsed: ").append(ours.collapsed()).append(" and ").append(truth.collapsed()).append('\n');
        return b.toString();
    }

    private static void row(StringBuilder b, String a, String c, String d, String e) {
        b.append("| ").append(a).append(" | ").append(c).append(" | ").append(d).append(" | ").append(e)
                .append(" |\n");
    }
}
