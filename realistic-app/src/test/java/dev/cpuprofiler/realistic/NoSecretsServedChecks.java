package dev.cpuprofiler.realistic;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.autoconfigure.CpuProfilerShutdown;
import dev.cpuprofiler.format.ProfileFormat;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedObject;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the endpoint serves and what the exporter pushes hold stacks and figures, never the application's
 * configuration. The shop is started from outside, as an operator starts a service, with a secret in a system
 * property ({@code -Dcheck.password=…}), in a program argument ({@code --check.secret=…}) and in an environment
 * variable ({@code SECRET_TOKEN=…}). Its CPU trigger fires under HTTP load with the look-back armed, so the profile
 * has both parts; every profile format (with each look-back view), the status JSON, the status page, the files in
 * {@code output-directory} and every request pushed to a Pyroscope (and, where its jar is present, an OTLP
 * collector) stand-in are searched for the three values: as bytes, gunzipped, and, for JFR files, in every string
 * field of every event. Run on the JDK running the tests with the default engine (async-profiler before JDK 25,
 * pushing pprof, ended by a SIGTERM mid-session), and on JDK 25 (jfr-cpu-time, pushing JFR) next to the application's
 * own {@code -XX:StartFlightRecording}, whose {@code default.jfc} records the system properties, the arguments and the
 * environment: the profile's JFR must be filtered down to its own events, and the application's own recording, read
 * with the same search, must show the password (the search can find what it looks for). Those two shops are
 * {@link RealisticProfileTest}'s and {@link RealisticProfileOnJdk25Test}'s: once their CPU-triggered profile is
 * served, the same shop, still under load, records the realistic profile those classes judge ({@link Judged}), and
 * what that profile leaves in the files and the pushes is searched too. The opt-in,
 * {@code profiler.cpu.jfr.include-system-info=true}, which puts the system properties back into the JFR and only
 * there, is the autoconfigure module's {@code SystemInfoOptInTest}.
 */
abstract class NoSecretsServedChecks {

    /**
     * The start-up grace: one whole average window, so that the trigger's first average covers a full window of calm
     * (with 4 s, a JDK 25 shop's trigger fired on the average of its first 6 seconds, 0.3 s after its look-back armed:
     * a profile without a look-back part).
     */
    private static final Duration GRACE = Duration.ofSeconds(10);
    /** Calm: one second of 100% CPU cannot lift the average of ten such seconds over 30% ((9 × 10 + 100) / 10). */
    private static final double CALM_PERCENT = 10;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** JFR events that carry configuration: none may be in a recording we serve while the opt-in is off. */
    private static final Set<String> CONFIGURATION_EVENTS = Set.of("jdk.InitialSystemProperty", "jdk.JVMInformation",
            "jdk.InitialEnvironmentVariable", "jdk.SystemProcess", "jdk.OSInformation", "jdk.NativeLibrary",
            "jdk.InitialSecurityProperty");

    private static final Map<String, String> SECRETS = new LinkedHashMap<>();
    private static HttpServer collector;
    private static final List<Pushed> pushed = new CopyOnWriteArrayList<>();

    /** One request the exporter sent. */
    record Pushed(String method, String uri, String headers, byte[] body) {
    }

    @BeforeAll
    static void secretsAndCollector() throws IOException {
        SecureRandom random = new SecureRandom();
        for (String name : List.of("system property", "program argument", "environment variable")) {
            byte[] bytes = new byte[12];
            random.nextBytes(bytes);
            SECRETS.put(name, "s3cr3t" + HexFormat.of().formatHex(bytes));
        }
        collector = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        collector.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            pushed.add(new Pushed(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                    exchange.getRequestHeaders().toString(), body));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
    }

    @AfterAll
    static void stopCollector() {
        if (collector != null) {
            collector.stop(0);
        }
    }

    /**
     * What one run served, and where the secrets were in it; what a SIGTERM mid-session left, when sent; the profile
     * {@link Judged} recorded, when asked for.
     */
    record Outcome(String engine, int jfrStatus, String notes, List<String> findings, KeptAtShutdown kept,
            RealisticRun.Result judged) {

        Outcome assertNoSecrets() {
            assertThat(findings).as("secrets in what the %s profile's app served and pushed", engine).isEmpty();
            return this;
        }
    }

    /**
     * What a SIGTERM sent while an on-demand profile of 30 s recorded left behind.
     *
     * @param startedAt when the session started, as the endpoint answered its POST
     * @param exited whether the process exited on its own within {@link #SIGTERM_EXIT}
     * @param exitedAfter how long after the SIGTERM
     * @param files the output directory's files named for the session's profile
     * @param pushes what the exporter pushed after the SIGTERM
     * @param log the application's log lines naming the session
     */
    record KeptAtShutdown(String id, Instant startedAt, boolean exited, Duration exitedAfter, int exitValue,
            List<String> files, List<Pushed> pushes, List<String> log) {

        void assertKept() {
            String all = String.join("\n", log);
            assertThat(exited).as("exited by itself after the SIGTERM:\n%s", all).isTrue();
            assertThat(exitedAfter).as("time from SIGTERM to exit:\n%s", all).isLessThan(SIGTERM_EXIT);
            assertThat(exitValue).as("exit status of a JVM ended by SIGTERM").isEqualTo(143);
            assertThat(all).contains("Stopping profiling session " + id + " early to keep its profile",
                    "Profile " + id + " recorded: ",
                    "On-demand session " + id + " ended COMPLETED (" + CpuProfiler.CUT_SHORT_BY_SHUTDOWN + ")");
            assertThat(files).as("the profile's files in output-directory").contains(
                    id + ProfileFormat.COLLAPSED.extension(), id + ProfileFormat.HTML.extension());
            // The pushed profile starts with the session: from is its start (an on-demand profile has no look-back).
            Pushed pyroscope = pushes.stream().filter(p -> p.uri().startsWith("/pyroscope/ingest?")
                    && p.uri().contains("&from=" + startedAt.getEpochSecond() + "&")).findFirst()
                    .orElseThrow(() -> new AssertionError("no Pyroscope push of the session after the SIGTERM: "
                            + pushes.stream().map(Pushed::uri).toList()));
            Map<String, String> query = new LinkedHashMap<>();
            for (String pair : pyroscope.uri().substring(pyroscope.uri().indexOf('?') + 1).split("&")) {
                query.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
            }
            long from = Long.parseLong(query.get("from"));
            assertThat(Long.parseLong(query.get("until")) - from).as("seconds pushed: what it recorded, not the 30 "
                    + "planned (%s)", pyroscope.uri()).isLessThan(30);
        }
    }

    /**
     * The most a SIGTERM may take to end the application with a session recording: the starter's wait for the
     * profile, the exporter's drain, the shop's own shutdown, and room for a loaded build machine.
     */
    static final Duration SIGTERM_EXIT = CpuProfilerShutdown.MAX_WAIT.plusSeconds(10);

    /**
     * A profile recorded in the shop once its CPU-triggered profile is served, under the same load, before the SIGTERM
     * if one is sent: the realistic profile {@link RealisticProfileTest} judges.
     */
    @FunctionalInterface
    interface Judged {
        RealisticRun.Result record(ChildApp app, LoadDriver load, long loadStartedNanos) throws Exception;
    }

    /**
     * @param sigtermMidSession whether to end the application, once everything is served, with a SIGTERM while an
     *        on-demand profile records ({@link Outcome#kept()}); the profile it keeps is searched for secrets too
     * @param judged the profile to record in the same shop (with the JVM's own JIT, which its bounds were measured
     *        with)
     */
    Outcome run(String name, String javaHome, String engine, String pushFormat, boolean sigtermMidSession,
            List<String> extraJvmArgs, Judged judged) throws Exception {
        RealisticRun.Settings settings = RealisticRun.Settings.fromSystemProperties();
        Path dir = workDirectory(name);
        Path out = dir.resolve("profiles");
        deleteTree(out);
        List<String> jvmArgs = new ArrayList<>(extraJvmArgs);
        jvmArgs.add("-Dcheck.password=" + SECRETS.get("system property"));
        String classpath = settings.classpath("async-profiler".equals(engine));
        String base = "http://127.0.0.1:" + collector.getAddress().getPort();
        List<String> args = new ArrayList<>(List.of("--check.secret=" + SECRETS.get("program argument"),
                // Calm until the grace ends (awaitCalm); then the load below arms the look-back at once (above 3%)
                // and raises the 10-s average above 30% seconds later: a CPU-triggered profile with both parts. Not a
                // 5-s average: with the other shop loaded beside it, a shop's look-back then had 0 or 1 samples as
                // the trigger fired (its JFR stream's start, on JDK 25 JFR's own initialisation too, takes seconds
                // on a starved shop); with 8 s, 5-37 samples.
                "--profiler.cpu.enabled=true", "--profiler.cpu.threshold=30",
                "--profiler.cpu.lookback-arming-ratio=0.1", "--profiler.cpu.startup-grace=" + GRACE.toSeconds() + "s",
                "--profiler.cpu.rolling-history-interval=1s", "--profiler.cpu.rolling-history-size=30s",
                "--profiler.cpu.average-window=10s", "--profiler.cpu.polling-interval=1s",
                "--profiler.cpu.duration=3s", "--profiler.cpu.lookback=20s",
                // No reference of normal: with the load steady under the threshold it recorded one (the search covers
                // any profile's formats alike), and the first one's own cost at its end (about 0.85 s of CPU: the
                // engine's first parse, the JIT) lifted the 5-s average over 30% by itself: the incident then came
                // 20 s late with a look-back of 1 sample.
                "--profiler.cpu.reference.enabled=false",
                // No latency trigger: a shop starved by its neighbour's start-up served requests of 2.5 s (95th
                // percentile) while its own CPU average dipped under 30%, and its LATENCY profile took the slot the
                // test's on-demand ones need (429). It is LatencyTriggerTest's, with a load it controls.
                "--profiler.latency.enabled=false",
                "--profiler.cpu.output-directory=" + out,
                "--profiler.cpu.export.pyroscope.url=" + base + "/pyroscope",
                "--profiler.cpu.export.pyroscope.format=" + pushFormat,
                "--profiler.cpu.export.otlp.endpoint=" + base + "/otlp"));
        if (engine != null) {
            args.add("--profiler.cpu.engine=" + engine);
        }
        pushed.clear();
        List<Served> served = new ArrayList<>();
        String profileId;
        JsonNode profile;
        int jfrStatus;
        KeptAtShutdown kept = null;
        RealisticRun.Result judgedProfile = null;
        String who = getClass().getSimpleName() + " " + name;
        try (ChildApp app = ChildApp.start(name, javaHome, classpath, dir, jvmArgs, args,
                Map.of("SECRET_TOKEN", SECRETS.get("environment variable")))) {
            long started = System.nanoTime();
            app.awaitReady(Duration.ofSeconds(120));
            long ready = System.nanoTime();
            awaitCalm(app, GRACE.plusSeconds(30));
            // The realistic load for every shop: the judged profile's bounds were measured with it, and its 4 clients
            // get a shop past the threshold beside a busy build, where 2 may not within the wait.
            try (LoadDriver load = new LoadDriver(app.port, settings.clients(), Duration.ofMinutes(5), 5_000_000)) {
                long loadStarted = System.nanoTime();
                profileId = awaitProfile(app, Duration.ofSeconds(90));
                awaitPushes(2, Duration.ofSeconds(30)); // Pyroscope and OTLP
                System.out.printf("%s: ready after %.1f s, profile and pushes %.1f s later%n", who,
                        (ready - started) / 1e9, (System.nanoTime() - ready) / 1e9);
                HttpClient http = HttpClient.newHttpClient();
                served.add(get(http, app, "/actuator/cpuprofiler", "application/json"));
                served.add(get(http, app, "/actuator/cpuprofiler", "text/html"));
                for (String format : List.of("json", "text", "collapsed", "html", "pprof", "jfr")) {
                    served.add(get(http, app, "/actuator/cpuprofiler/" + profileId + "?format=" + format, "*/*"));
                    if (!format.equals("jfr")) {
                        for (String view : List.of("only", "exclude")) {
                            served.add(get(http, app, "/actuator/cpuprofiler/" + profileId + "?format=" + format
                                    + "&lookback=" + view, "*/*"));
                        }
                    }
                }
                judgedProfile = judged.record(app, load, loadStarted);
            }
            profile = JSON.readTree(new String(served.get(2).body, StandardCharsets.UTF_8));
            jfrStatus = served.stream().filter(s -> s.what.contains("format=jfr ")).findFirst().orElseThrow().status;
            System.out.println(who + ": profile " + profileId + " by "
                    + profile.path("engine").asString() + ", look-back " + profile.path("lookback").path("samples")
                    + " samples, format=jfr " + jfrStatus + ", notes " + profile.path("notes"));
            if (sigtermMidSession) {
                kept = sigtermMidSession(app, out);
                System.out.println(who + ": SIGTERM mid-session, exited after "
                        + kept.exitedAfter().toMillis() + " ms with " + kept.exitValue() + "; files " + kept.files()
                        + "; log:\n  " + String.join("\n  ", kept.log()));
            }
        }
        for (Served s : served) {
            assertThat(s.status).as(s.what).isIn(200, 404);
        }
        assertThat(profile.path("trigger").asString()).isEqualTo("CPU");
        assertThat(profile.path("jfrFile").isNull() || profile.path("jfrFile").asString().equals(profileId + ".jfr"))
                .as("jfrFile names the download, not where the file lies on the server: %s", profile.path("jfrFile"))
                .isTrue();
        assertThat(profile.path("lookback").path("samples").asLong())
                .as("the profile's look-back part, searched too (%s)", profile.path("lookback")).isPositive();
        List<String> findings = new ArrayList<>();
        for (Served s : served) {
            findings(s.body).forEach(f -> findings.add(s.what + ": " + f));
        }
        try (Stream<Path> files = Files.walk(out)) {
            List<Path> list = files.filter(Files::isRegularFile).toList();
            assertThat(list).as("files in output-directory").isNotEmpty();
            for (Path f : list) {
                findings(Files.readAllBytes(f)).forEach(x -> findings.add(f.getFileName() + ": " + x));
            }
        }
        assertThat(pushed).as("requests pushed").isNotEmpty();
        for (Pushed p : pushed) {
            byte[] all = (p.method + " " + p.uri + "\n" + p.headers + "\n").getBytes(StandardCharsets.UTF_8);
            findings(all).forEach(x -> findings.add("push " + p.uri + " (request line and headers): " + x));
            findings(p.body).forEach(x -> findings.add("push " + p.uri + " (body): " + x));
        }
        return new Outcome(profile.path("engine").asString(), jfrStatus, profile.path("notes").toString(), findings,
                kept, judgedProfile);
    }

    /** Starts an on-demand profile of 30 s, sends SIGTERM once it has samples, and collects what is left. */
    private static KeptAtShutdown sigtermMidSession(ChildApp app, Path out) throws Exception {
        int pushesBefore = pushed.size();
        HttpResponse<String> post = app.postJson("/actuator/cpuprofiler", "{\"duration\": \"30s\"}");
        assertThat(post.statusCode()).as(post.body()).isEqualTo(200);
        JsonNode session = JSON.readTree(post.body());
        String id = session.path("id").asString();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (JSON.readTree(app.get("/actuator/cpuprofiler").body()).path("session").path("samples").asLong() == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("session " + id + " recorded nothing:\n" + app.logTail(40));
            }
            Thread.sleep(100);
        }
        long sent = System.nanoTime();
        boolean exited = app.terminate(SIGTERM_EXIT.plusSeconds(15));
        Duration exitedAfter = Duration.ofNanos(System.nanoTime() - sent);
        List<String> files;
        try (Stream<Path> list = Files.list(out)) {
            files = list.map(f -> f.getFileName().toString()).filter(f -> f.startsWith(id)).sorted().toList();
        }
        List<String> log = Files.readAllLines(app.log, StandardCharsets.UTF_8).stream().filter(l -> l.contains(id))
                .toList();
        return new KeptAtShutdown(id, Instant.parse(session.path("startedAt").asString()), exited, exitedAfter,
                exited ? app.exitValue() : -1, files, List.copyOf(pushed.subList(pushesBefore, pushed.size())), log);
    }

    /** What one GET answered. */
    record Served(String what, int status, byte[] body) {
    }

    private static Served get(HttpClient http, ChildApp app, String path, String accept)
            throws IOException, InterruptedException {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(app.uri(path)).header("Accept", accept)
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        return new Served(path + " (Accept " + accept + ")", r.statusCode(), r.body());
    }

    private static String awaitProfile(ChildApp app, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> status = app.get("/actuator/cpuprofiler");
            JsonNode latest = JSON.readTree(status.body()).path("latestProfile");
            if (!latest.isMissingNode() && !latest.isNull()) {
                return latest.path("id").asString();
            }
            Thread.sleep(500); // each status request costs the loaded shop CPU; the profile comes seconds later
        }
        throw new IllegalStateException("no CPU-triggered profile within " + timeout + ":\n" + app.logTail(40));
    }

    /**
     * Sleeps through what the status says is left of the start-up grace (a fresh shop's status requests run cold code:
     * polled 10 times a second they took its CPU over the threshold by themselves), then asks once a second until the
     * trigger's average is under {@link #CALM_PERCENT}: a JIT-compiled shop may still be busy with its start-up as the
     * grace ends, and the load on top fired the trigger on the tick the look-back armed, a profile without a look-back
     * part.
     */
    private static void awaitCalm(ChildApp app, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            JsonNode status = JSON.readTree(app.get("/actuator/cpuprofiler").body());
            JsonNode grace = status.path("trigger").path("startupGraceRemaining");
            JsonNode average = status.path("cpu").path("averagePercent");
            if (!grace.isNull() && !grace.isMissingNode()) {
                Thread.sleep(Duration.parse(grace.asString()).toMillis() + 20);
            } else if (average.isNumber() && average.asDouble() < CALM_PERCENT) {
                return;
            } else {
                Thread.sleep(1000); // the sampler's interval
            }
        }
        throw new IllegalStateException("the start-up grace did not end, or the CPU average did not fall under "
                + CALM_PERCENT + "%, within " + timeout + ":\n" + app.logTail(20));
    }

    private static void awaitPushes(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pushed.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }

    /** Where the secrets are in these bytes: as they are, gunzipped, and in a JFR file's every string. */
    static List<String> findings(byte[] bytes) throws IOException {
        List<String> found = new ArrayList<>();
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        SECRETS.forEach((name, value) -> {
            if (text.contains(value)) {
                found.add("the " + name);
            }
        });
        if (bytes.length > 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) {
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
                findings(in.readAllBytes()).forEach(f -> found.add("gunzipped: " + f));
            }
        }
        if (bytes.length > 4 && text.startsWith("FLR\0")) {
            found.addAll(jfrFindings(bytes));
        }
        return found;
    }

    private static List<String> jfrFindings(byte[] bytes) throws IOException {
        Path file = Files.createTempFile("secrets", ".jfr");
        try {
            Files.write(file, bytes);
            List<String> found = new ArrayList<>();
            Set<String> configuration = new TreeSet<>();
            try (RecordingFile recording = new RecordingFile(file)) {
                while (recording.hasMoreEvents()) {
                    RecordedEvent event = recording.readEvent();
                    String type = event.getEventType().getName();
                    if (CONFIGURATION_EVENTS.contains(type)) {
                        configuration.add(type);
                    }
                    StringBuilder strings = new StringBuilder();
                    collectStrings(event, strings, 0);
                    SECRETS.forEach((name, value) -> {
                        if (strings.indexOf(value) >= 0) {
                            found.add("the " + name + " in a " + type + " event");
                        }
                    });
                }
            }
            if (!configuration.isEmpty()) {
                found.add("configuration events " + configuration);
            }
            return found;
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void collectStrings(RecordedObject object, StringBuilder out, int depth) {
        if (depth > 8) {
            return;
        }
        for (var field : object.getFields()) {
            Object value = object.getValue(field.getName());
            if (value instanceof String s) {
                out.append(s).append('\n');
            } else if (value instanceof RecordedObject nested) {
                collectStrings(nested, out, depth + 1);
            } else if (value instanceof List<?> list) {
                for (Object item : list) {
                    if (item instanceof RecordedObject nested) {
                        collectStrings(nested, out, depth + 1);
                    }
                }
            }
        }
    }

    static Path workDirectory(String name) throws IOException {
        Path dir = Path.of(RealisticRun.Settings.property("realistic.workDirectory", "target/realistic"))
                .toAbsolutePath().resolve("secrets").resolve(name);
        Files.createDirectories(dir);
        return dir;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
