package dev.cpuprofiler.realistic;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code benchmarks/realistic.sh}: for the JDK it runs on, and each engine, the shop under the test's load with
 * {@code --profiler.cpu.engine=<engine>}: the figures of one on-demand profile against one truth run of
 * async-profiler's agent, and the throughput with and without a session running; then the start-up time and heap
 * of an idle app with and without async-profiler on its classpath. Prints Markdown.
 *
 * <p>Throughput: after the warm-up (60 s from realistic.sh: the shop is still getting faster a minute in) and the
 * figures' profile, {@code rounds} pairs of equal windows of {@code session + 3 s}, one starting with a POST of a
 * session (so it holds the session and the dump and parse that end it), one with no session; the pairs alternate
 * their order (on-off, off-on, ...) so the JIT's drift does not favour one side. The ratio is the sum of requests
 * in the "on" windows over those in the "off" ones.
 */
public final class RealisticBenchmark {

    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

    private final RealisticRun run;
    private final int rounds;
    private final Duration session;
    private final List<String> out = new ArrayList<>();

    private RealisticBenchmark(RealisticRun run, int rounds, Duration session) {
        this.run = run;
        this.rounds = rounds;
        this.session = session;
    }

    public static void main(String[] args) throws Exception {
        RealisticRun.Settings settings = RealisticRun.Settings.fromSystemProperties();
        int feature = Runtime.version().feature();
        List<String> engines = new ArrayList<>(List.of("jfr-execution", "async-profiler"));
        if (feature >= 25) {
            engines.add("jfr-cpu-time");
        }
        String only = RealisticRun.Settings.property("realistic.engines", "");
        if (!only.isEmpty()) {
            engines = Arrays.asList(only.split(","));
        }
        int rounds = Integer.parseInt(RealisticRun.Settings.property("realistic.rounds", "4"));
        Duration session = Duration.ofSeconds(Long.parseLong(RealisticRun.Settings.property("realistic.sessionSeconds",
                "10")));
        boolean startup = !RealisticRun.Settings.property("realistic.startup", "true").equals("false");
        new RealisticBenchmark(new RealisticRun(settings), rounds, session).run(engines, startup);
    }

    private void run(List<String> engines, boolean startup) throws Exception {
        RealisticRun.Settings s = run.settings();
        log("JDK " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + "), "
                + Runtime.getRuntime().availableProcessors() + " CPUs; engines " + engines + "; warm-up "
                + s.warmUp().toSeconds() + " s, profile " + s.window().toSeconds() + " s, " + s.clients()
                + " clients; throughput " + rounds + " pairs of " + session.plusSeconds(3).toSeconds() + " s windows"
                + (s.runtimeHasAsyncProfiler() ? "; the starter brings async-profiler" : "; the starter does not bring"
                        + " async-profiler (added to the classpath for its engine only)"));
        RealisticRun.Result truth = run.truth("bench-truth");
        ProfileFigures t = truth.figures();
        log("truth: " + t);

        List<String> rows = new ArrayList<>();
        rows.add("| engine | detail | samples | idle wait % | root cut % | dispatch % of Java | top self (of Java) "
                + "| request depth p50/max | req/s off | req/s on | on/off (pairs) |");
        rows.add("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|");
        rows.add(String.format(Locale.ROOT, "| agent (truth) | event=cpu | %d | %.1f | %.1f | %.1f | %s %.1f%% | %d/%d "
                + "| %.0f | - | - |", t.samples(), t.idleWaitPercent(), t.rootCutPercent(), t.dispatchPercent(),
                shortName(t.topSelfMethod()), t.topSelfPercent(), t.requestDepthMedian(), t.requestDepthMax(),
                truth.requestsPerSecond()));
        for (String engine : engines) {
            try {
                rows.add(engineRow(engine.strip()));
            } catch (Exception e) {
                log(engine + " failed: " + e);
                rows.add("| " + engine + " | failed: " + e.getMessage().lines().findFirst().orElse("") + " |");
            }
        }
        out.add("");
        out.add("### Figures and session throughput, JDK " + System.getProperty("java.version"));
        out.add("");
        out.addAll(rows);

        if (startup) {
            out.add("");
            out.addAll(startupTable());
        }
        String report = String.join("\n", out);
        System.out.println("\n" + report);
        Path file = s.workDirectory().resolve("realistic-" + Runtime.version().feature() + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".md");
        Files.writeString(file, report + "\n", StandardCharsets.UTF_8);
        System.out.println("\n(written to " + file + ")");
    }

    private String engineRow(String engine) throws Exception {
        RealisticRun.Settings s = run.settings();
        try (ChildApp app = run.startApp("bench-" + engine, s.classpath("async-profiler".equals(engine)),
                List.of("--profiler.cpu.engine=" + engine));
                LoadDriver load = run.load(app, Duration.ofMinutes(15))) {
            JitWarmUp.await(app.pid(), s.warmUp(), s.maxWarmUp());
            RealisticRun.Result r = run.profileWindow(app, load, "bench-" + engine, engine);
            ProfileFigures f = r.figures();
            log(engine + ": " + r.engine() + " / " + r.engineDetail() + " " + f);

            Duration window = session.plusSeconds(3);
            long on = 0;
            long off = 0;
            List<String> pairs = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                long a;
                long b;
                if (round % 2 == 0) {
                    a = onWindow(app, load, window);
                    b = offWindow(load, window);
                } else {
                    b = offWindow(load, window);
                    a = onWindow(app, load, window);
                }
                on += a;
                off += b;
                pairs.add(String.format(Locale.ROOT, "%.2f", (double) a / b));
                log(engine + " round " + (round + 1) + ": on " + a + ", off " + b + " requests");
            }
            double seconds = window.toMillis() / 1000.0 * rounds;
            return String.format(Locale.ROOT, "| %s | %s | %d | %.1f | %.1f | %.1f | %s %.1f%% | %d/%d | %.1f | %.1f "
                    + "| **%.3f** (%s) |", engine, r.engineDetail(), f.samples(), f.idleWaitPercent(),
                    f.rootCutPercent(), f.dispatchPercent(), shortName(f.topSelfMethod()), f.topSelfPercent(),
                    f.requestDepthMedian(), f.requestDepthMax(), off / seconds, on / seconds, (double) on / off,
                    String.join(", ", pairs));
        }
    }

    /** Requests completed in a window that starts with a session's POST and lasts session + 3 s. */
    private long onWindow(ChildApp app, LoadDriver load, Duration window) throws Exception {
        String before = latestId(app);
        long start = load.completed();
        long t0 = System.nanoTime();
        HttpResponse<String> posted = app.postJson("/actuator/cpuprofiler",
                "{\"duration\":\"" + session.toSeconds() + "s\"}");
        if (posted.statusCode() != 200) {
            throw new IllegalStateException("POST answered " + posted.statusCode() + ": " + posted.body());
        }
        sleepUntil(t0 + window.toNanos());
        long requests = load.completed() - start;
        // Never let a session's tail spill into the next window.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (latestId(app).equals(before) && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        return requests;
    }

    private static long offWindow(LoadDriver load, Duration window) throws InterruptedException {
        long start = load.completed();
        long t0 = System.nanoTime();
        sleepUntil(t0 + window.toNanos());
        return load.completed() - start;
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, left / 1_000_000));
        }
    }

    private static String latestId(ChildApp app) throws Exception {
        String body = app.get("/actuator/cpuprofiler").body();
        Matcher m = Pattern.compile("\"latestProfile\"\\s*:\\s*\\{\\s*\"id\"\\s*:\\s*\"([^\"]+)\"").matcher(body);
        return m.find() ? m.group(1) : "";
    }

    /** Start-up time and heap after start-up of an idle app (starter on, defaults), without and with async-profiler. */
    private List<String> startupTable() throws Exception {
        RealisticRun.Settings s = run.settings();
        int repeats = Integer.parseInt(RealisticRun.Settings.property("realistic.startupRepeats", "2"));
        double[][] started = new double[2][repeats];
        double[][] heap = new double[2][repeats];
        double[][] rss = new double[2][repeats];
        for (int i = 0; i < repeats; i++) {
            for (int variant = 0; variant < 2; variant++) {
                int v = (i % 2 == 0) ? variant : 1 - variant;
                String cp = v == 0 ? s.classpathWithoutAsyncProfiler() : s.classpath(true);
                try (ChildApp app = run.startApp("startup-" + v + "-" + i, cp, List.of())) {
                    Thread.sleep(3000);
                    started[v][i] = app.startedInSeconds();
                    heap[v][i] = heapUsedMb(app.pid());
                    rss[v][i] = rssMb(app.pid());
                }
                log("start-up " + (v == 0 ? "without" : "with") + " async-profiler: " + started[v][i] + " s, heap "
                        + heap[v][i] + " MB, RSS " + rss[v][i] + " MB");
            }
        }
        List<String> rows = new ArrayList<>();
        rows.add("### Idle app: start-up and memory, JDK " + System.getProperty("java.version") + " (median of "
                + repeats + ")");
        rows.add("");
        rows.add("| classpath | started in (s) | heap used after a full GC (MB) | RSS (MB) |");
        rows.add("|---|---:|---:|---:|");
        rows.add(String.format(Locale.ROOT, "| without async-profiler | %.2f | %.1f | %.0f |", median(started[0]),
                median(heap[0]), median(rss[0])));
        rows.add(String.format(Locale.ROOT, "| with async-profiler | %.2f | %.1f | %.0f |", median(started[1]),
                median(heap[1]), median(rss[1])));
        return rows;
    }

    private static double heapUsedMb(long pid) throws IOException, InterruptedException {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        exec(jcmd, Long.toString(pid), "GC.run");
        Matcher m = HEAP_USED.matcher(exec(jcmd, Long.toString(pid), "GC.heap_info"));
        return m.find() ? Long.parseLong(m.group(1)) / 1024.0 : Double.NaN;
    }

    private static double rssMb(long pid) throws IOException {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        if (!Files.exists(status)) {
            return Double.NaN;
        }
        Matcher m = RSS.matcher(Files.readString(status));
        return m.find() ? Long.parseLong(m.group(1)) / 1024.0 : Double.NaN;
    }

    private static String exec(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(60, TimeUnit.SECONDS);
        return output;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String shortName(String frame) {
        int method = frame.lastIndexOf('.');
        int cls = method > 0 ? frame.lastIndexOf('.', method - 1) : -1;
        return cls >= 0 ? frame.substring(cls + 1) : frame;
    }

    private static void log(String line) {
        System.out.println("[realistic] " + line);
    }
}
