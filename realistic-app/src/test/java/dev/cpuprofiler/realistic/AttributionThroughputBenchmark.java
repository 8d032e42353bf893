package dev.cpuprofiler.realistic;

import java.io.File;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code benchmarks/attribution-throughput.sh}: what request attribution (CPU by endpoint) costs the shop's
 * throughput while a profile records, in one JVM, off and on in interleaved windows.
 * <p>
 * The shop runs in a child JVM with realistic-app's test classes on its classpath and
 * {@code dev.cpuprofiler.attributionswitch.AttributionSwitchConfiguration} as an extra source: the starter's
 * observation handler around a {@code RequestActivity} that reads as not recording while switched off
 * ({@code POST /attribution-switch?on=}). After the warm-up under load ({@code realistic.warmUpSeconds}, 60 s from
 * the script) and one unmeasured priming session (attribution on, then off: both paths compiled), each round is one
 * on-demand session ({@code POST /actuator/cpuprofiler}, one fresh request log per round, far from full) recording
 * {@code settle} seconds and then four back-to-back windows: OFF, A, OFF, B, where A and B are ON (attribution on)
 * and CONTROL (attribution off, measured as ON is), swapped every other round; the last round ends with one more
 * OFF. A slot's ratio is its requests/s over the mean of the two OFF windows around it (the next round's first one
 * for B), as in {@code EngineOverheadMeasure}; the control's ratios show the noise floor. The dump and parse that
 * end a session lie between rounds, outside every window. Besides requests/s, each window's requests per CPU-second
 * of the app's JVM ({@code /proc/<pid>/stat}) gives the same ratios in CPU, which other processes on the machine
 * disturb less; and each window notes how much CPU those used, so that ratios whose three windows were quiet are also
 * summarised apart. Prints Markdown, also written to
 * {@code realistic-app/target/realistic/attribution-<jdk>-<time>.md}.
 * <p>
 * Options (-D): {@code attribution.rounds} (20), {@code attribution.windowSeconds} (5),
 * {@code attribution.settleSeconds} (2), {@code attribution.engine} (empty: the default, {@code auto}),
 * {@code attribution.quietCpus} (0.15: other processes' CPUs below which a window is quiet),
 * {@code attribution.testClassesDirectory} ({@code target/test-classes}); and RealisticRun's
 * {@code realistic.warmUpSeconds}, {@code realistic.maxWarmUpSeconds}, {@code realistic.clients}.
 */
public final class AttributionThroughputBenchmark {

    static final String SWITCH_SOURCE = "dev.cpuprofiler.attributionswitch.AttributionSwitchConfiguration";
    /**
     * The per-request cost of attribution while a profile records, from RequestAttributionBenchmark (docs/profile.md).
     */
    static final double HANDLER_NANOS_PER_REQUEST = 296;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** {@code /proc/<pid>/stat} counts CPU time in clock ticks: {@code getconf CLK_TCK}, 100 on Linux. */
    private static final int CLOCK_TICKS = 100;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private enum Slot { OFF, ON, CONTROL }

    /**
     * One measured window: requests served, CPU seconds the app's JVM used, and CPUs used on average by everything
     * else than the app and this JVM (the other processes of the machine); -1 where /proc is unreadable.
     */
    private record Window(int round, Slot slot, long requests, double perSecond, double cpuSeconds,
            double otherCpus) {

        double perCpuSecond() {
            return cpuSeconds > 0 ? requests / cpuSeconds : Double.NaN;
        }
    }

    private final RealisticRun run;
    private final int rounds;
    private final Duration window;
    private final Duration settle;
    private final String engine;
    private final double quietCpus = Double.parseDouble(RealisticRun.Settings.property("attribution.quietCpus",
            "0.15"));
    private final List<Window> windows = new ArrayList<>();
    private final List<String> sessionChecks = new ArrayList<>();

    private AttributionThroughputBenchmark(RealisticRun run, int rounds, Duration window, Duration settle,
            String engine) {
        this.run = run;
        this.rounds = rounds;
        this.window = window;
        this.settle = settle;
        this.engine = engine;
    }

    public static void main(String[] args) throws Exception {
        RealisticRun.Settings settings = RealisticRun.Settings.fromSystemProperties();
        int rounds = Integer.parseInt(RealisticRun.Settings.property("attribution.rounds", "20"));
        Duration window = Duration.ofSeconds(Long.parseLong(RealisticRun.Settings.property(
                "attribution.windowSeconds", "5")));
        Duration settle = Duration.ofSeconds(Long.parseLong(RealisticRun.Settings.property(
                "attribution.settleSeconds", "2")));
        String engine = RealisticRun.Settings.property("attribution.engine", "");
        Path testClasses = Path.of(RealisticRun.Settings.property("attribution.testClassesDirectory",
                "target/test-classes")).toAbsolutePath();
        if (!Files.isRegularFile(testClasses.resolve(SWITCH_SOURCE.replace('.', '/') + ".class"))) {
            throw new IllegalStateException("no " + SWITCH_SOURCE + " under " + testClasses
                    + " (-Dattribution.testClassesDirectory)");
        }
        new AttributionThroughputBenchmark(new RealisticRun(settings), rounds, window, settle, engine)
                .run(testClasses);
    }

    private void run(Path testClasses) throws Exception {
        RealisticRun.Settings s = run.settings();
        LocalDateTime began = LocalDateTime.now();
        log("JDK " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + "), "
                + Runtime.getRuntime().availableProcessors() + " CPUs; engine "
                + (engine.isEmpty() ? "default" : engine) + "; warm-up " + s.warmUp().toSeconds() + "-"
                + s.maxWarmUp().toSeconds() + " s, " + s.clients() + " clients; " + rounds
                + " rounds of OFF, A, OFF, B with " + window.toSeconds() + " s windows; started "
                + began.format(CLOCK));
        List<String> appArgs = new ArrayList<>(List.of("--spring.main.sources=" + SWITCH_SOURCE));
        if (!engine.isEmpty()) {
            appArgs.add("--profiler.cpu.engine=" + engine);
        }
        String classpath = s.classpath("async-profiler".equals(engine)) + File.pathSeparator + testClasses;
        String engineSeen;
        Duration warmedUp;
        try (ChildApp app = run.startApp("attribution", classpath, appArgs);
                LoadDriver load = run.load(app, Duration.ofHours(2))) {
            if (!"on".equals(setSwitch(app, true))) {
                throw new IllegalStateException("the attribution switch does not answer");
            }
            warmedUp = JitWarmUp.await(app.pid(), s.warmUp(), s.maxWarmUp());
            // Priming: one session with attribution on, then off, unmeasured, so that both paths are compiled.
            engineSeen = session(app, load, -1, List.of(Slot.ON, Slot.OFF, Slot.ON, Slot.OFF));
            log("priming done (" + engineSeen + ")");
            for (int round = 0; round < rounds; round++) {
                Slot a = round % 2 == 0 ? Slot.ON : Slot.CONTROL;
                Slot b = a == Slot.ON ? Slot.CONTROL : Slot.ON;
                List<Slot> slots = new ArrayList<>(List.of(Slot.OFF, a, Slot.OFF, b));
                if (round == rounds - 1) {
                    slots.add(Slot.OFF);
                }
                session(app, load, round, slots);
            }
            if (load.failed() > 0) {
                log(load.failed() + " failed requests, the last: " + load.lastFailure());
            }
        }
        LocalDateTime ended = LocalDateTime.now();
        String report = report(engineSeen, warmedUp, began, ended);
        System.out.println("\n" + report);
        Path file = s.workDirectory().resolve("attribution-" + Runtime.version().feature() + "-"
                + began.format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + ".md");
        Files.writeString(file, report + "\n", StandardCharsets.UTF_8);
        System.out.println("\n(written to " + file + ")");
    }

    /**
     * One on-demand session covering {@code settle} and then one window per slot; waits for its profile and checks
     * that it attributed about as many requests as the ON windows served. Round -1 is not kept. Returns the
     * session's engine.
     */
    private String session(ChildApp app, LoadDriver load, int round, List<Slot> slots) throws Exception {
        setSwitch(app, slots.get(0) == Slot.ON);
        String before = latestId(app);
        long seconds = settle.toSeconds() + slots.size() * window.toSeconds() + 1;
        long t0 = System.nanoTime();
        HttpResponse<String> posted = app.postJson("/actuator/cpuprofiler", "{\"duration\":\"" + seconds + "s\"}");
        if (posted.statusCode() != 200) {
            throw new IllegalStateException("POST /actuator/cpuprofiler answered " + posted.statusCode() + ": "
                    + posted.body());
        }
        sleepUntil(t0 + settle.toNanos());
        long onRequests = 0;
        List<String> line = new ArrayList<>();
        for (Slot slot : slots) {
            setSwitch(app, slot == Slot.ON);
            long start = load.completed();
            long cpu0 = cpuTicks(app.pid());
            long self0 = cpuTicks(ProcessHandle.current().pid());
            long all0 = machineBusyTicks();
            long w0 = System.nanoTime();
            sleepUntil(w0 + window.toNanos());
            long requests = load.completed() - start;
            long w1 = System.nanoTime();
            long cpu1 = cpuTicks(app.pid());
            long self1 = cpuTicks(ProcessHandle.current().pid());
            long all1 = machineBusyTicks();
            double perSecond = requests * 1e9 / (w1 - w0);
            double cpuSeconds = cpu0 < 0 || cpu1 < 0 ? -1 : (cpu1 - cpu0) / (double) CLOCK_TICKS;
            double otherCpus = Math.min(cpu0, Math.min(self0, all0)) < 0 ? -1
                    : Math.max(0, (all1 - all0) - (cpu1 - cpu0) - (self1 - self0)) / (double) CLOCK_TICKS
                            / ((w1 - w0) / 1e9);
            if (slot == Slot.ON) {
                onRequests += requests;
            }
            if (round >= 0) {
                windows.add(new Window(round, slot, requests, perSecond, cpuSeconds, otherCpus));
            }
            line.add(String.format(Locale.ROOT, "%s %.1f (%.1f/CPU-s, others %.2f CPUs)", slot, perSecond,
                    requests / cpuSeconds, otherCpus));
        }
        setSwitch(app, false);
        String id = awaitNewProfile(app, before, Duration.ofSeconds(seconds + 90));
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) - seconds * 1000;
        JsonNode profile = JSON.readTree(app.get("/actuator/cpuprofiler/" + id + "?format=json").body());
        long attributed = 0;
        for (JsonNode endpoint : profile.path("endpoints")) {
            attributed += endpoint.path("requests").asLong(0);
        }
        String engineSeen = profile.path("engine").asString("?") + " / " + profile.path("engineDetail").asString("?");
        String check = String.format(Locale.ROOT, "%s: %d requests attributed, %d served in its ON windows; "
                + "samples %d; profile ready %.1f s after the session's end",
                round < 0 ? "priming" : "round " + (round + 1), attributed, onRequests,
                profile.path("samples").asLong(), waited / 1000.0);
        if (round >= 0) {
            sessionChecks.add(check);
        }
        log(String.join(", ", line) + " req/s; " + check);
        // Attribution must follow the switch: about the ON windows' requests (plus those in flight at a flip).
        if (onRequests > 0 && (attributed < onRequests * 0.8 || attributed > onRequests * 1.2 + 50)) {
            log("WARNING: the attribution switch did not hold (attributed " + attributed + " requests, ON windows "
                    + onRequests + "); notes " + profile.path("notes"));
        }
        return engineSeen;
    }

    /** One slot's ratios in one measure: every round's, and those whose three windows were quiet. */
    private static final class Ratios {

        final List<Double> all = new ArrayList<>();
        final List<Double> quiet = new ArrayList<>();

        void add(double ratio, boolean isQuiet) {
            all.add(ratio);
            if (isQuiet) {
                quiet.add(ratio);
            }
        }
    }

    private String report(String engineSeen, Duration warmedUp, LocalDateTime began, LocalDateTime ended) {
        RealisticRun.Settings s = run.settings();
        // A slot's window over the mean of the OFF windows around it, in two measures: requests/s, and requests per
        // CPU-second of the app's JVM (attribution's cost in CPU, less sensitive to what else runs on the machine).
        Ratios onRps = new Ratios();
        Ratios controlRps = new Ratios();
        Ratios onCpu = new Ratios();
        Ratios controlCpu = new Ratios();
        List<Double> off = new ArrayList<>();
        List<Double> offCpu = new ArrayList<>();
        List<Double> offCores = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        rows.add("| round | order | OFF req/s (mean) | ON req/s | CONTROL req/s | ON ratio | CONTROL ratio "
                + "| ON ratio, req/CPU-s | CONTROL ratio, req/CPU-s | other processes, CPUs (max) |");
        rows.add("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int r = 0; r < rounds; r++) {
            double[] ratio = {Double.NaN, Double.NaN};
            double[] cpuRatio = {Double.NaN, Double.NaN};
            double[] rps = {Double.NaN, Double.NaN};
            List<Double> offs = new ArrayList<>();
            List<String> order = new ArrayList<>();
            double others = 0;
            for (int i = 0; i < windows.size(); i++) {
                Window w = windows.get(i);
                if (w.round() != r) {
                    continue;
                }
                order.add(w.slot().name());
                others = Math.max(others, w.otherCpus());
                if (w.slot() == Slot.OFF) {
                    offs.add(w.perSecond());
                    off.add(w.perSecond());
                    offCpu.add(w.perCpuSecond());
                    offCores.add(w.cpuSeconds() / window.toSeconds());
                    continue;
                }
                Window left = windows.get(i - 1);
                Window right = windows.get(i + 1);
                boolean quiet = isQuiet(left) && isQuiet(w) && isQuiet(right);
                int k = w.slot() == Slot.ON ? 0 : 1;
                ratio[k] = w.perSecond() / ((left.perSecond() + right.perSecond()) / 2);
                cpuRatio[k] = w.perCpuSecond() / ((left.perCpuSecond() + right.perCpuSecond()) / 2);
                rps[k] = w.perSecond();
                (k == 0 ? onRps : controlRps).add(ratio[k], quiet);
                (k == 0 ? onCpu : controlCpu).add(cpuRatio[k], quiet);
            }
            rows.add(String.format(Locale.ROOT, "| %d | %s | %.1f | %.1f | %.1f | %.4f | %.4f | %.4f | %.4f | %.2f |",
                    r + 1, String.join(", ", order.subList(0, 4)), mean(offs), rps[0], rps[1], ratio[0], ratio[1],
                    cpuRatio[0], cpuRatio[1], others));
        }
        double offRpsMedian = median(off);
        double handlerShare = offRpsMedian * HANDLER_NANOS_PER_REQUEST / 1e9;
        int cpus = Runtime.getRuntime().availableProcessors();
        List<String> out = new ArrayList<>();
        out.add("### Request attribution's throughput cost, JDK " + System.getProperty("java.version") + " ("
                + engineSeen + ")");
        out.add("");
        out.add(String.format(Locale.ROOT, "%d CPUs, %d clients; warm-up %.0f s; %d rounds of %d s windows (OFF, A, "
                + "OFF, B; A/B = ON/CONTROL, swapped every other round), a profile recording throughout; %s to %s. "
                + "OFF windows: median %.1f req/s, the app's JVM using %.2f CPUs, %.1f requests per CPU-second. "
                + "Attribution's own CPU at %.0f ns per request (RequestAttributionBenchmark): %.3f ms/s, %.4f%% of "
                + "%d CPUs.", cpus, s.clients(), warmedUp.toMillis() / 1000.0, rounds, window.toSeconds(),
                began.format(CLOCK), ended.format(CLOCK).substring(11), offRpsMedian, median(offCores),
                median(offCpu), HANDLER_NANOS_PER_REQUEST, handlerShare * 1000, handlerShare * 100 / cpus, cpus));
        out.add("");
        out.addAll(rows);
        out.add("");
        out.add("| JDK (engine) | measure | ratios | OFF (median) | ON/OFF median (IQR; min-max) "
                + "| CONTROL median (IQR; min-max) | ± of a median (ON / CONTROL) |");
        out.add("|---|---|---:|---:|---:|---:|---:|");
        out.add(summaryRow(engineSeen, "req/s", offRpsMedian, onRps.all, controlRps.all));
        out.add(summaryRow(engineSeen, "req/s, quiet", offRpsMedian, onRps.quiet, controlRps.quiet));
        out.add(summaryRow(engineSeen, "req per CPU-s", median(offCpu), onCpu.all, controlCpu.all));
        out.add(summaryRow(engineSeen, "req per CPU-s, quiet", median(offCpu), onCpu.quiet, controlCpu.quiet));
        out.add("");
        out.add(String.format(Locale.ROOT, "Throughput: ON/OFF median %.4f (%+.2f%% ± %.2f%%); the control's median "
                + "%+.2f%% and ± %.2f%% (1.2533 × IQR/1.349 / √n, the standard error of a median of that spread) are "
                + "the noise floor. Requests per CPU-second of the app: ON/OFF %.4f (%+.2f%% ± %.2f%%), control "
                + "%+.2f%% ± %.2f%%. "
                + "Quiet: in the ratio's window and both neighbours, the machine's other processes (its busy CPU time "
                + "but the app's and this JVM's, steal included) used under %.2f CPUs.", median(onRps.all),
                (median(onRps.all) - 1) * 100, halfWidth(onRps.all) * 100, (median(controlRps.all) - 1) * 100,
                halfWidth(controlRps.all) * 100, median(onCpu.all), (median(onCpu.all) - 1) * 100,
                halfWidth(onCpu.all) * 100, (median(controlCpu.all) - 1) * 100, halfWidth(controlCpu.all) * 100,
                quietCpus));
        out.add("");
        sessionChecks.forEach(c -> out.add("- " + c));
        return String.join("\n", out);
    }

    private boolean isQuiet(Window w) {
        return w.otherCpus() >= 0 && w.otherCpus() < quietCpus;
    }

    private String summaryRow(String engineSeen, String measure, double offValue, List<Double> on,
            List<Double> control) {
        return String.format(Locale.ROOT, "| %s (%s) | %s | %d + %d of %d × %d s | %.1f | **%.4f** (%s; %s) | %.4f "
                + "(%s; %s) | %.4f / %.4f |", System.getProperty("java.version"), engineSeen, measure, on.size(),
                control.size(), rounds, window.toSeconds(), offValue, median(on), iqr(on), range(on), median(control),
                iqr(control), range(control), halfWidth(on), halfWidth(control));
    }

    /** Busy CPU time of the machine ({@code /proc/stat}: all but idle and iowait), in clock ticks; -1 if unreadable. */
    private static long machineBusyTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal
            long busy = 0;
            for (int i = 1; i <= 8 && i < f.length; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(f[i]);
                }
            }
            return busy;
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    /** User and system CPU time of the process, all its threads (dead ones too), in clock ticks; -1 if unreadable. */
    private static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // After "pid (comm)": state is field 3, utime 14, stime 15.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    private static String setSwitch(ChildApp app, boolean on) throws Exception {
        HttpResponse<String> r = app.postJson("/attribution-switch?on=" + on, "");
        if (r.statusCode() != 200) {
            throw new IllegalStateException("POST /attribution-switch answered " + r.statusCode() + ": " + r.body());
        }
        return r.body().strip();
    }

    private static String latestId(ChildApp app) throws Exception {
        HttpResponse<String> status = app.get("/actuator/cpuprofiler");
        if (status.statusCode() != 200) {
            throw new IllegalStateException("GET /actuator/cpuprofiler answered " + status.statusCode());
        }
        return JSON.readTree(status.body()).path("latestProfile").path("id").asString("");
    }

    private static String awaitNewProfile(ChildApp app, String before, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String id = latestId(app);
            if (!id.isEmpty() && !id.equals(before)) {
                return id;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("no new profile within " + timeout + ":\n" + app.logTail(30));
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long left;
        while ((left = nanoTime - System.nanoTime()) > 0) {
            Thread.sleep(Math.max(1, left / 1_000_000));
        }
    }

    private static double mean(List<Double> values) {
        return values.stream().mapToDouble(d -> d).average().orElse(Double.NaN);
    }

    private static double median(List<Double> values) {
        return quantile(values, 0.5);
    }

    /** Linear interpolation between order statistics. */
    private static double quantile(List<Double> values, double q) {
        double[] sorted = values.stream().mapToDouble(d -> d).sorted().toArray();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double at = q * (sorted.length - 1);
        int lo = (int) Math.floor(at);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (at - lo) * (sorted[hi] - sorted[lo]);
    }

    private static String iqr(List<Double> values) {
        return String.format(Locale.ROOT, "%.4f-%.4f", quantile(values, 0.25), quantile(values, 0.75));
    }

    private static String range(List<Double> values) {
        return String.format(Locale.ROOT, "%.4f-%.4f", quantile(values, 0), quantile(values, 1));
    }

    /** The standard error of the median of normal values with this interquartile range. */
    private static double halfWidth(List<Double> values) {
        double sigma = (quantile(values, 0.75) - quantile(values, 0.25)) / 1.349;
        return 1.2533 * sigma / Math.sqrt(values.size());
    }

    private static void log(String line) {
        System.out.println("[attribution] " + line + " (" + LocalDateTime.now().format(CLOCK).substring(11) + ")");
    }
}
