package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.PeersSection.spread;
import static dev.cpuprofiler.benchmarks.harness.Report.num;

import dev.cpuprofiler.benchmarks.app.BenchApplication;
import dev.cpuprofiler.fixtures.OpenLoopLoad;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * What the starter costs the application it is a guest in, in memory and start-up, from outside, next to the
 * profiler off and the Pyroscope Java agent: {@code benchmarks/guest.sh [--quick] [--nmt]}. In the harness's package
 * to reuse its package-private parts ({@link App}'s arguments, {@link Child}, {@link Jvms}, {@link Proc},
 * {@link PeerTool}, {@link PyroscopeSink}) unchanged.
 *
 * <p>The app is the peers section's ({@link PeerTool}, {@code BenchApplication}, {@code -Xms512m -Xmx512m}, JDK 17,
 * the harness's flags, the same arguments as {@link App}). Configurations: {@code none} (starter on the classpath,
 * {@code profiler.enabled=false}), {@code ours} (every default; no async-profiler jar, as in the peers section: engine
 * jfr-execution), {@code ours+async-profiler} (the same with the async-profiler 4.6 jar the starter's pom brings to a
 * user), {@code pyroscope} (its agent, defaults, uploading to {@link PyroscopeSink}).
 *
 * <ol>
 * <li>Start-up: N starts a configuration, configurations alternating start by start; from the process's launch to
 * {@code /actuator/health} answering UP (polled every 50 ms), Spring's own "Started ... in X seconds", the process's
 * CPU and RSS at that moment.
 * <li>Memory: one JVM a configuration, all started one after the other; each read {@code idle} seconds after it was
 * ready; then one at a time under an open-loop load ({@link OpenLoopLoad}, {@code GET /bench/endpoints/beta}, the
 * rate calibrated on a separate {@code none} JVM to put it at about 55% of the machine, below the starter's 80%
 * trigger) read after {@code busy} seconds; then, under the same load, {@code ours}: N on-demand profiles
 * ({@code POST /actuator/cpuprofiler?duration=5s}, each waited for), the others: the same wall time; read again.
 * A reading ({@link GuestProbe}): VmRSS, the resident part of the Java heap's mapping (what the heap has touched)
 * and the rest (native), heap used after a full GC, loaded classes, threads, async-profiler's library mapped.
 * </ol>
 *
 * <p>{@code --nmt}: the memory part only, every JVM with {@code -XX:NativeMemoryTracking=summary}; at each reading
 * the NMT summary and the loaded classes by name are saved and compared with {@code none}'s by category and package.
 */
public final class Guest {

    /** A configuration of the same app. */
    enum Config {
        NONE("none", PeerTool.NONE, false, "the starter on the classpath, `profiler.enabled=false`"),
        /** A second none JVM, read idle only: how far two identical JVMs differ (the comparison's noise floor). */
        NONE_TWIN("none, twin", PeerTool.NONE, false, "a second `none` JVM, read idle only (memory part): how far two "
                + "identical JVMs differ"),
        OURS("ours", PeerTool.OURS, false, "the starter, every default; no async-profiler jar (as the peers section's "
                + "app): engine jfr-execution"),
        OURS_AP("ours+async-profiler", PeerTool.OURS, true, "the starter, every default, with "
                + "`tools.profiler:async-profiler:4.6` on the classpath, as the starter's pom brings it to a user: "
                + "engine async-profiler on JDK 17"),
        PYROSCOPE("pyroscope", PeerTool.PYROSCOPE, false, "`-javaagent:` io.pyroscope:agent "
                + PeerTool.PYROSCOPE_VERSION + ", its defaults, `-Dpyroscope.server.address` = the harness's sink; starter off");

        final String id;
        final PeerTool tool;
        final boolean asyncProfilerJar;
        final String description;

        Config(String id, PeerTool tool, boolean asyncProfilerJar, String description) {
            this.id = id;
            this.tool = tool;
            this.asyncProfilerJar = asyncProfilerJar;
            this.description = description;
        }

        boolean starter() {
            return tool == PeerTool.OURS;
        }

        static Config of(String id) {
            for (Config c : values()) {
                if (c.id.equals(id) || c.name().equalsIgnoreCase(id.replace('-', '_').replace('+', '_'))) {
                    return c;
                }
            }
            throw new IllegalArgumentException("unknown configuration " + id);
        }
    }

    /** Durations of a run (seconds) and counts. */
    record Plan(String mode, int starts, double idle, double ramp, double busy, int profiles,
            String profileDuration, double profileSeconds, double calibrationWarm, double calibrationWindow) {

        static Plan full() {
            return new Plan("full", 5, 60, 10, 60, 10, "5s", 5, 15, 10);
        }

        static Plan quick() {
            return new Plan("quick", 2, 20, 6, 20, 3, "5s", 5, 6, 5);
        }
    }

    /** One running JVM of a configuration and how its start went. */
    record Running(Config config, Child child, String base, long pid, double upSeconds, double springStarted,
            double processRunning, long rssAtUp, double cpuSecondsAtUp, long readyNanos) implements AutoCloseable {
        @Override
        public void close() {
            child.close();
        }

        /** SIGKILL, for a JVM whose start only was measured: no graceful shutdown to wait for. */
        void kill() {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            child.close();
        }
    }

    /** The state of one configuration at one reading. */
    record State(GuestProbe.Reading reading, String lookback, String notes) {
    }

    static final String PATH = PeersBusy.PATH;
    static final double TARGET = 0.55;
    /** The load's ramp starts at this fraction of the rate. */
    static final double RAMP_FROM = 0.25;
    static final List<String> STATES = List.of("idle", "busy", "after profiles");
    private static final Pattern STARTED = Pattern.compile(
            "Started \\S+ in ([0-9.]+) seconds \\(process running for ([0-9.]+)\\)");

    private final Ctx ctx;
    private final Plan plan;
    private final boolean nmt;
    private final List<Config> configs;
    private final GuestProbe probe;
    private final PyroscopeSink sink;
    private final List<String> problems = new ArrayList<>();

    private Guest(Ctx ctx, Plan plan, boolean nmt, List<Config> configs, PyroscopeSink sink) {
        this.ctx = ctx;
        this.plan = plan;
        this.nmt = nmt;
        this.configs = configs;
        this.sink = sink;
        this.probe = new GuestProbe(ctx.jvms.java);
    }

    public static void main(String[] args) throws Exception {
        Plan plan = Plan.full();
        boolean nmt = false;
        Path results = Path.of("benchmarks", "results");
        List<Config> configs = List.of(Config.NONE, Config.OURS, Config.PYROSCOPE, Config.OURS_AP);
        Integer starts = null;
        for (String a : args) {
            if (a.equals("--quick")) {
                plan = Plan.quick();
            } else if (a.equals("--nmt")) {
                nmt = true;
            } else if (a.startsWith("--configs=")) {
                configs = Arrays.stream(a.substring(10).split(",")).map(Config::of).toList();
            } else if (a.startsWith("--starts=")) {
                starts = Integer.parseInt(a.substring(9));
            } else if (a.startsWith("--results=")) {
                results = Path.of(a.substring(10));
            } else {
                System.out.println("[guest] unknown argument " + a);
                System.out.println("usage: benchmarks/guest.sh [--quick] [--nmt] [--configs=none,ours,pyroscope,"
                        + "ours+async-profiler] [--starts=N] [--results=DIR]");
                System.exit(2);
            }
        }
        if (starts != null) {
            plan = new Plan(plan.mode(), starts, plan.idle(), plan.ramp(), plan.busy(), plan.profiles(),
                    plan.profileDuration(), plan.profileSeconds(), plan.calibrationWarm(), plan.calibrationWindow());
        }
        if (!configs.contains(Config.NONE)) {
            List<Config> withNone = new ArrayList<>(List.of(Config.NONE));
            withNone.addAll(configs);
            configs = withNone;
        }
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        Path work = Path.of("benchmarks", "target", "bench-work", stamp + "-guest").toAbsolutePath();
        Files.createDirectories(work);
        Ctx ctx = new Ctx(Settings.full(), work);
        String uptimeStart = Harness.uptime();
        long t0 = System.nanoTime();
        System.out.printf("[guest] %s run%s, configurations %s, work directory %s%n[guest] %s%n", plan.mode(),
                nmt ? " with NMT" : "", configs.stream().map(c -> c.id).toList(), work, uptimeStart);
        String body;
        try (PyroscopeSink sink = new PyroscopeSink()) {
            Guest g = new Guest(ctx, plan, nmt, configs, sink);
            body = g.run();
        }
        double minutes = (System.nanoTime() - t0) / 60e9;
        String cmd = "benchmarks/guest.sh" + (plan.mode().equals("quick") ? " --quick" : "") + (nmt ? " --nmt" : "")
                + Arrays.stream(args).filter(a -> a.startsWith("--configs=") || a.startsWith("--starts="))
                        .map(a -> " " + a).collect(Collectors.joining());
        StringBuilder md = new StringBuilder();
        md.append("# Guest cost: memory and start-up").append(nmt ? ", with Native Memory Tracking" : "").append(" (")
                .append(plan.mode()).append(" run, ").append(stamp).append(")\n\n");
        md.append("Command: `").append(cmd).append("` (").append(num(minutes, 1)).append(" min). JDK ")
                .append(Jvms.version(ctx.jvms.java)).append("; ").append(ctx.cpus).append(" CPUs; commit ")
                .append(git()).append(".\n\n`uptime` at start: ").append(uptimeStart).append("; at end: ")
                .append(Harness.uptime()).append(". The machine may have been shared with other builds and tests: start-up "
                        + "times are noisy, hence the alternation and the spread.\n\n");
        md.append(body);
        Files.createDirectories(results);
        Path out = results.resolve(stamp + "-guest" + (nmt ? "-nmt" : "") + ".md");
        Files.writeString(out, md.toString());
        System.out.println();
        System.out.println("================================================================================");
        System.out.println(md);
        System.out.println("[guest] results written to " + out.toAbsolutePath() + " (raw logs: " + work + ")");
    }

    private String run() throws Exception {
        StringBuilder md = new StringBuilder("Configurations, the same app (`BenchApplication`, `-Xms512m -Xmx512m`, "
                + "`-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints`, the peers section's arguments), child "
                + "JVMs on 127.0.0.1" + (nmt ? ", every one with `-XX:NativeMemoryTracking=summary`" : "") + ":\n\n");
        for (Config c : configs) {
            md.append("- **").append(c.id).append("**: ").append(c.description).append('\n');
        }
        md.append('\n');
        if (!nmt) {
            md.append(startups());
        }
        double rate = calibrate();
        md.append(memory(rate));
        if (!problems.isEmpty()) {
            md.append("\n## Problems\n\n");
            problems.forEach(p -> md.append("- ").append(p).append('\n'));
        }
        return md.toString();
    }

    // ---------------------------------------------------------------------------------------------- start-up

    private String startups() throws Exception {
        Map<Config, List<Running>> runs = new LinkedHashMap<>();
        Map<Config, Map<Integer, Running>> byRound = new LinkedHashMap<>();
        configs.forEach(c -> {
            runs.put(c, new ArrayList<>());
            byRound.put(c, new TreeMap<>());
        });
        long[] m0 = Proc.machineJiffies();
        long w0 = System.nanoTime();
        long ours = 0;
        for (int r = 0; r < plan.starts(); r++) {
            for (int k = 0; k < configs.size(); k++) {
                Config c = configs.get((k + r) % configs.size()); // each round starts one configuration later
                try {
                    Running app = start(c, "start-" + file(c) + "-" + (r + 1));
                    runs.get(c).add(app);
                    byRound.get(c).put(r, app);
                    ours += Proc.cpuNanos(app.pid());
                    app.kill();
                    System.out.printf("[guest] start %d %s: up in %.2f s (Spring: started in %.2f s, process running "
                            + "for %.2f s), %.2f s CPU, RSS %.0f MB%n", r + 1, c.id, app.upSeconds(),
                            app.springStarted(), app.processRunning(), app.cpuSecondsAtUp(), app.rssAtUp() / 1e6);
                } catch (IOException e) {
                    problems.add("start " + (r + 1) + " of " + c.id + " failed: " + e.getMessage());
                }
                Thread.sleep(500);
            }
        }
        double others = Proc.externalPercent(m0, Proc.machineJiffies(), ours, System.nanoTime() - w0, ctx.cpus);
        StringBuilder md = new StringBuilder("## Start-up\n\n");
        md.append(Proc.fmt("%d starts a configuration, the configurations alternating start by start (round r starts "
                + "them in the order shifted by r), each JVM stopped once it answered. *Up*: from the process's launch "
                + "(`ProcessBuilder.start`) to `GET /actuator/health` answering `\"status\":\"UP\"` (polled every "
                + "50 ms; readiness is part of it, so it is after `ApplicationReadyEvent`). *Spring*: its own line \"Started "
                + "BenchApplication in X seconds (process running for Y)\". *CPU*: the process's user + system time "
                + "(`/proc/<pid>/stat`) at up, less sensitive than wall time to a shared machine. Median (min–max). "
                + "*Above none*: paired by round (each start less the same round's `none` start, median and range "
                + "of the rounds), which takes out what drifts between rounds. "
                + "Others' CPU meanwhile (the machine's busy time minus these JVMs' own, jcmd and the harness "
                + "included): about %.0f%% of the machine.%n%n", plan.starts(), others));
        md.append("| configuration | up, s | above none, s | Spring \"started in\", s | Spring \"process running "
                + "for\", s | CPU to up, s | above none, s | RSS at up, MB | above none, MB | starts |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (Config c : configs) {
            List<Running> rs = runs.get(c);
            List<Double> up = rs.stream().map(Running::upSeconds).toList();
            List<Double> sp = rs.stream().map(Running::springStarted).toList();
            List<Double> pr = rs.stream().map(Running::processRunning).toList();
            List<Double> cpu = rs.stream().map(Running::cpuSecondsAtUp).toList();
            List<Double> rss = rs.stream().map(x -> x.rssAtUp() / 1e6).toList();
            boolean none = c == Config.NONE;
            List<Double> dUp = new ArrayList<>();
            List<Double> dCpu = new ArrayList<>();
            List<Double> dRss = new ArrayList<>();
            byRound.get(c).forEach((r, x) -> {
                Running n = byRound.get(Config.NONE).get(r);
                if (n != null) {
                    dUp.add(x.upSeconds() - n.upSeconds());
                    dCpu.add(x.cpuSecondsAtUp() - n.cpuSecondsAtUp());
                    dRss.add((x.rssAtUp() - n.rssAtUp()) / 1e6);
                }
            });
            md.append("| ").append(c.id).append(" | ").append(spread(up, 2)).append(" | ")
                    .append(none ? "–" : signedSpread(dUp, 2)).append(" | ").append(spread(sp, 2))
                    .append(" | ").append(spread(pr, 2)).append(" | ").append(spread(cpu, 2)).append(" | ")
                    .append(none ? "–" : signedSpread(dCpu, 2)).append(" | ").append(spread(rss, 0))
                    .append(" | ").append(none ? "–" : signedSpread(dRss, 0)).append(" | ")
                    .append(rs.size()).append(" |\n");
        }
        md.append("\nEach start (up s / CPU s), in order: ");
        List<String> each = new ArrayList<>();
        for (Config c : configs) {
            each.add(c.id + " " + runs.get(c).stream()
                    .map(x -> num(x.upSeconds(), 2) + "/" + num(x.cpuSecondsAtUp(), 1))
                    .collect(Collectors.joining(", ")));
        }
        md.append(String.join("; ", each)).append(".\n\n");
        return md.toString();
    }

    private Running start(Config c, String name) throws IOException, InterruptedException {
        StringBuilder why = new StringBuilder();
        List<String> toolFlags = c.tool.flags(ctx, sink.url(), why);
        if (toolFlags == null) {
            throw new IOException(c.id + " cannot run here: " + why);
        }
        int port = Http.freePort();
        List<String> args = new ArrayList<>(List.of("--server.port=" + port, "--server.address=127.0.0.1",
                "--spring.main.banner-mode=off", "--management.endpoints.web.exposure.include=health,cpuprofiler",
                "--management.endpoint.cpuprofiler.access=unrestricted"));
        c.tool.props().forEach(p -> args.add("--" + p));
        List<String> flags = new ArrayList<>(List.of("-Xms512m", "-Xmx512m"));
        if (nmt) {
            flags.add("-XX:NativeMemoryTracking=summary");
        }
        flags.addAll(toolFlags);
        List<String> cmd = ctx.jvms.command(false, c.asyncProfilerJar, flags, BenchApplication.class.getName(), args);
        long t0 = System.nanoTime();
        Child child = Child.start(name, cmd, ctx.work.resolve(name + ".log"));
        String base = "http://127.0.0.1:" + port;
        long deadline = t0 + 120_000_000_000L;
        boolean up = false;
        while (System.nanoTime() < deadline && child.alive()) {
            try {
                Http.Response r = Http.get(base + "/actuator/health", 2);
                if (r.status() == 200 && r.body().contains("\"status\":\"UP\"")) {
                    up = true;
                    break;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(50);
        }
        long ready = System.nanoTime();
        if (!up) {
            String tail = child.tail(25);
            child.close();
            throw new IOException(name + " did not answer UP in 120 s (log " + child.log + "):\n" + tail);
        }
        long pid = child.pid();
        long rss = Proc.rssBytes(pid);
        double cpu = Proc.cpuNanos(pid) / 1e9;
        double[] spring = {Double.NaN, Double.NaN};
        for (int i = 0; i < 50 && Double.isNaN(spring[0]); i++) { // the line is written before readiness; read it
            Matcher m = STARTED.matcher(Files.readString(child.log));
            if (m.find()) {
                spring[0] = Double.parseDouble(m.group(1));
                spring[1] = Double.parseDouble(m.group(2));
            } else {
                Thread.sleep(100);
            }
        }
        return new Running(c, child, base, pid, (ready - t0) / 1e9, spring[0], spring[1], rss, cpu, ready);
    }

    // ---------------------------------------------------------------------------------------------- load

    /** The open-loop rate that puts a separate, warmed {@code none} JVM at about {@link #TARGET} of the machine. */
    private double calibrate() throws Exception {
        double rate = 300;
        try (Running none = start(Config.NONE, "calibrate-none")) {
            try (OpenLoopLoad load = OpenLoopLoad.start(none.base() + PATH, rate)) {
                Thread.sleep((long) (plan.calibrationWarm() * 1000));
            }
            for (int i = 0; i < 4; i++) {
                double perRequest;
                try (OpenLoopLoad load = OpenLoopLoad.start(none.base() + PATH, rate)) {
                    Thread.sleep(3000);
                    long c0 = Proc.cpuNanos(none.pid());
                    OpenLoopLoad.Counts n0 = load.counts();
                    Thread.sleep((long) (plan.calibrationWindow() * 1000));
                    long c1 = Proc.cpuNanos(none.pid());
                    OpenLoopLoad.Counts n = load.counts().minus(n0);
                    perRequest = (c1 - c0) / (double) Math.max(1, n.answered());
                }
                double next = Math.max(20, Math.min(8000, TARGET * ctx.cpus * 1e9 / perRequest));
                System.out.printf("[guest] calibration at %.0f req/s: %.0f µs CPU a request -> %.0f req/s%n", rate,
                        perRequest / 1e3, next);
                boolean settled = i > 0 && Math.abs(next - rate) < 0.1 * rate; // the first step is JIT warm-up
                rate = next;
                if (settled) {
                    break;
                }
            }
        }
        return rate;
    }

    // ---------------------------------------------------------------------------------------------- memory

    private String memory(double rate) throws Exception {
        Map<Config, Map<String, State>> states = new LinkedHashMap<>();
        Map<Config, String> busyNotes = new LinkedHashMap<>();
        Map<Config, Running> apps = new LinkedHashMap<>();
        double profilesWall = plan.profiles() * (plan.profileSeconds() + 0.6); // the others' wall time, until ours ran
        List<Double> oursWalls = new ArrayList<>();
        try {
            List<Config> started = new ArrayList<>(configs);
            started.add(started.indexOf(Config.NONE) + 1, Config.NONE_TWIN);
            // Started together (their start-up is not what is measured here), each read idle s after its own UP.
            java.util.concurrent.ExecutorService pool =
                    java.util.concurrent.Executors.newFixedThreadPool(started.size());
            Map<Config, java.util.concurrent.Future<Running>> starting = new LinkedHashMap<>();
            for (Config c : started) {
                starting.put(c, pool.submit(() -> start(c, "memory-" + file(c))));
                states.put(c, new LinkedHashMap<>());
            }
            for (Map.Entry<Config, java.util.concurrent.Future<Running>> e : starting.entrySet()) {
                try {
                    apps.put(e.getKey(), e.getValue().get());
                    System.out.printf("[guest] %s up in %.2f s%n", e.getKey().id, apps.get(e.getKey()).upSeconds());
                } catch (java.util.concurrent.ExecutionException ex) {
                    problems.add(e.getKey().id + " not measured: " + ex.getCause().getMessage());
                }
            }
            pool.shutdown();
            List<Running> byReady = new ArrayList<>(apps.values());
            byReady.sort(java.util.Comparator.comparingLong(Running::readyNanos));
            for (Running app : byReady) { // idle: each one idle s after it was ready
                long wait = app.readyNanos() + (long) (plan.idle() * 1e9) - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000);
                }
                states.get(app.config()).put("idle", read(app, "idle", ""));
                System.out.printf("[guest] %s idle: %s%n", app.config().id,
                        brief(states.get(app.config()).get("idle")));
            }
            Running twin = apps.remove(Config.NONE_TWIN);
            if (twin != null) {
                twin.close();
            }
            for (Running app : apps.values()) { // then one at a time: load, read, profiles (or the same wall), read
                Config c = app.config();
                try (OpenLoopLoad load = OpenLoopLoad.start(app.base() + PATH, rate * RAMP_FROM)) {
                    // A ramp first: a cold JVM costs more a request until the JIT has compiled the path, and at the
                    // full rate from the start it saturates, queues 256 requests (their objects live, Tomcat's pool
                    // grows) and drops, which is not the state to compare.
                    int steps = (int) Math.max(1, Math.round(plan.ramp()));
                    for (int i = 1; i <= steps; i++) {
                        Thread.sleep((long) (plan.ramp() * 1000 / steps));
                        load.rate("load", rate * (RAMP_FROM + (1 - RAMP_FROM) * i / steps));
                    }
                    long cpu0 = Proc.cpuNanos(app.pid());
                    long[] m0 = Proc.machineJiffies();
                    long w0 = System.nanoTime();
                    OpenLoopLoad.Counts n0 = load.counts();
                    Thread.sleep((long) (plan.busy() * 1000));
                    long cpu1 = Proc.cpuNanos(app.pid());
                    long w1 = System.nanoTime();
                    OpenLoopLoad.Counts n = load.counts().minus(n0);
                    double appShare = 100.0 * (cpu1 - cpu0) / ((w1 - w0) * (double) ctx.cpus);
                    double others = Proc.externalPercent(m0, Proc.machineJiffies(), cpu1 - cpu0, w1 - w0, ctx.cpus);
                    String note = Proc.fmt("app %.0f%% of the machine, others %.0f%%; %.0f answered/s, %d failed, %d "
                            + "dropped, %d late", appShare, others, n.answered() / (n.nanos() / 1e9), n.failed(),
                            n.dropped(), n.late());
                    busyNotes.put(c, note);
                    states.get(c).put("busy", read(app, "busy", note));
                    System.out.printf("[guest] %s busy: %s (%s)%n", c.id, brief(states.get(c).get("busy")), note);
                    long p0 = System.nanoTime();
                    String pnote;
                    if (c.starter()) {
                        pnote = profiles(app);
                        oursWalls.add((System.nanoTime() - p0) / 1e9);
                        pnote += Proc.fmt("; %.0f s", oursWalls.get(oursWalls.size() - 1));
                    } else {
                        double wall = oursWalls.isEmpty() ? profilesWall : Stats.median(oursWalls);
                        Thread.sleep((long) (wall * 1000));
                        pnote = Proc.fmt("no profiles: the same load for %.0f s (%s)", wall, oursWalls.isEmpty()
                                ? "the nominal wall time of the profiles" : "the starter's profiles' wall time");
                    }
                    states.get(c).put("after profiles", read(app, "profiles", pnote));
                    System.out.printf("[guest] %s after profiles: %s (%s)%n", c.id,
                            brief(states.get(c).get("after profiles")), pnote);
                }
                app.close(); // its part is over: free the machine for the next one
            }
        } finally {
            apps.values().forEach(Running::close);
        }
        return memoryReport(rate, states, busyNotes);
    }

    /** {@code plan.profiles()} on-demand profiles one after the other, each waited for; a note of how they went. */
    private String profiles(Running app) throws Exception {
        int ok = 0;
        List<String> engines = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < plan.profiles(); i++) {
            String id = null;
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (id == null && System.nanoTime() < deadline) {
                Http.Response r = Http.post(app.base() + "/actuator/cpuprofiler?duration=" + plan.profileDuration(),
                        null, 10);
                if (r.status() / 100 == 2) {
                    JsonNode j = r.json();
                    id = j.path("id").asString("");
                    String engine = j.path("engine").asString("?");
                    if (!engines.contains(engine)) {
                        engines.add(engine);
                    }
                } else if (r.status() == 409) { // a session (CPU-triggered, the look-back's) is recording
                    Thread.sleep(500);
                } else {
                    failures.add("POST " + r.status());
                    break;
                }
            }
            if (id == null || id.isEmpty()) {
                continue;
            }
            boolean done = false;
            while (!done && System.nanoTime() < deadline) {
                Thread.sleep(250);
                JsonNode s = Http.get(app.base() + "/actuator/cpuprofiler", 10).json();
                boolean running = s.path("session").path("id").asString("").equals(id);
                for (JsonNode p : s.path("profiles")) {
                    if (p.path("id").asString("").equals(id)) {
                        done = !running;
                    }
                }
            }
            if (done) {
                ok++;
            } else {
                failures.add(id + " not listed in 60 s");
            }
        }
        return ok + " of " + plan.profiles() + " profiles of " + plan.profileDuration() + " (engine "
                + String.join(", ", engines) + ")" + (failures.isEmpty() ? "" : "; " + String.join(", ", failures));
    }

    private State read(Running app, String tag, String notes) throws Exception {
        GuestProbe.Reading r = probe.read(app.pid(), nmt, ctx.work, file(app.config()) + "-" + tag);
        String lookback = "";
        if (app.config().starter()) {
            try {
                JsonNode status = Http.get(app.base() + "/actuator/cpuprofiler", 10).json();
                JsonNode lb = status.path("lookback");
                lookback = lb.path("state").asString("?");
                if (lb.path("footprintBytes").asLong(0) > 0) {
                    lookback += Proc.fmt(" (ring %.1f MB)", lb.path("footprintBytes").asLong() / 1e6);
                }
                Map<String, Integer> byItself = new TreeMap<>(); // profiles it recorded unasked: reference, CPU, ...
                for (JsonNode p : status.path("profiles")) {
                    String trigger = p.path("trigger").asString("?");
                    if (!trigger.equals("MANUAL")) {
                        byItself.merge(trigger, 1, Integer::sum);
                    }
                }
                JsonNode reference = status.path("reference");
                if (!byItself.isEmpty()) {
                    lookback += "; recorded by itself: " + byItself.entrySet().stream()
                            .map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining(", "));
                }
                if (reference.isObject() && reference.size() > 0) {
                    lookback += "; reference " + reference.path("state").asString(reference.toString().length() > 80
                            ? "present" : reference.toString());
                }
            } catch (Exception e) {
                lookback = "status unreadable";
            }
        }
        return new State(r, lookback, notes);
    }

    private static String brief(State s) {
        GuestProbe.Reading r = s.reading();
        return Proc.fmt("RSS %.1f MB (heap resident %.1f, native %.1f; after GC + trim %.1f), heap after GC %.1f MB, "
                + "%d classes, %d threads%s", r.rss() / 1e6, r.heapResident() / 1e6, r.nonHeapRss() / 1e6,
                r.nonHeapTrimmed() / 1e6, r.heapUsedAfterGc() / 1e6, r.classes(), r.threadCount(),
                s.lookback().isEmpty() ? "" : ", look-back " + s.lookback());
    }

    // ---------------------------------------------------------------------------------------------- report

    private String memoryReport(double rate, Map<Config, Map<String, State>> states, Map<Config, String> busyNotes)
            throws IOException {
        StringBuilder md = new StringBuilder("## Memory\n\n");
        md.append(Proc.fmt("One JVM a configuration, started one after the other. *idle*: %.0f s after it answered UP, "
                + "no request yet. Then one configuration at a time under an open-loop load (`OpenLoopLoad`, `GET %s`, "
                + "%.0f requests a second: the rate that put a separate, warmed `none` JVM at about %.0f%% of the "
                + "machine's %d CPUs, below the starter's 80%% trigger and above its 48%% look-back arming level): "
                + "*busy*: after a ramp from %.0f%% to the full rate over %.0f s (a cold JVM at the full rate at once "
                + "saturates, queues and drops), then %.0f s at the full rate; *after profiles*: the same load on, "
                + "then `ours`: %d on-demand profiles "
                + "`POST /actuator/cpuprofiler?duration=%s` one after the other, each waited for (listed in the "
                + "status, no session running), the others: the same wall time. Each JVM is stopped after its "
                + "part.%n%n", plan.idle(), PATH, rate, TARGET * 100, ctx.cpus, RAMP_FROM * 100, plan.ramp(),
                plan.busy(), plan.profiles(),
                plan.profileDuration()));
        md.append("A reading, from outside: *RSS* `VmRSS` of `/proc/<pid>/status`, at that moment; *heap resident* the "
                + "resident part of the Java heap's mapping (the `Rss:` of `/proc/<pid>/smaps` inside the range "
                + "`jcmd <pid> GC.heap_info` gives): with `-Xms512m` all of the heap is committed, and what is "
                + "resident "
                + "is what the heap has touched so far, which follows allocation, not live data; *native* = RSS − heap "
                + "resident (metaspace, code, threads, malloc, mapped jars and libraries); then one `jcmd <pid> -f` "
                + "batch: `GC.heap_info`, `GC.run`, `GC.heap_info` (*heap after GC*: its used), "
                + "`System.trim_native_heap` (glibc's malloc_trim: the memory freed by the JIT's and others' mallocs that "
                + "glibc kept resident; *trim freed*), after which RSS and the heap's resident part are read again: "
                + "*native after GC + trim*. The native RSS as is carries the process's malloc peak (C2's arenas reach "
                + "tens of MB while it compiles), so two identical JVMs differ by several MB there; after the trim "
                + "much less (the `none, twin` row). MB = 10^6 bytes. Above none: the same state of `none`.\n\n");
        md.append("| configuration | state | RSS, MB | above none | heap resident, MB | native RSS, MB | above none "
                + "| native after GC + trim, MB | above none | trim freed, MB | heap used after full GC, MB | above none "
                + "| metaspace used, MB | classes loaded | threads |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        Map<String, State> none = states.getOrDefault(Config.NONE, Map.of());
        for (String st : STATES) {
            for (Config c : states.keySet()) {
                State s = states.get(c).get(st);
                if (s == null) {
                    continue;
                }
                GuestProbe.Reading r = s.reading();
                GuestProbe.Reading n = none.containsKey(st) ? none.get(st).reading() : null;
                boolean base = c == Config.NONE || n == null;
                md.append("| ").append(c.id).append(" | ").append(st).append(" | ").append(mb(r.rss())).append(" | ")
                        .append(base ? "–" : signedMb(r.rss() - n.rss())).append(" | ").append(mb(r.heapResident()))
                        .append(" | ").append(mb(r.nonHeapRss())).append(" | ")
                        .append(base ? "–" : signedMb(r.nonHeapRss() - n.nonHeapRss())).append(" | ")
                        .append(mb(r.nonHeapTrimmed())).append(" | ")
                        .append(base ? "–" : signedMb(r.nonHeapTrimmed() - n.nonHeapTrimmed())).append(" | ")
                        .append(mb(r.trimmedBytes())).append(" | ")
                        .append(mb(r.heapUsedAfterGc())).append(" | ")
                        .append(base ? "–" : signedMb(r.heapUsedAfterGc() - n.heapUsedAfterGc())).append(" | ")
                        .append(mb(r.metaspaceUsed())).append(" | ").append(r.classes())
                        .append(base ? "" : " (" + signed(r.classes() - n.classes(), 0) + ")").append(" | ")
                        .append(r.threadCount()).append(base ? "" : " (" + signed(r.threadCount() - n.threadCount(), 0)
                                + ")").append(" |\n");
            }
        }
        md.append("\nAdded over `none` at the same state, MB: RSS as the OS sees it / the native part of it / the native "
                + "part after the full GC and a malloc trim (what the process holds rather than its peak) / heap used "
                + "after the full GC:\n\n| configuration |");
        STATES.forEach(st -> md.append(' ').append(st).append(" |"));
        md.append("\n|---|").append("---|".repeat(STATES.size())).append('\n');
        for (Config c : states.keySet()) {
            if (c == Config.NONE) {
                continue;
            }
            md.append("| ").append(c.id).append(" |");
            for (String st : STATES) {
                State s = states.get(c).get(st);
                State n = none.get(st);
                if (s == null || n == null) {
                    md.append(" – |");
                    continue;
                }
                GuestProbe.Reading r = s.reading();
                GuestProbe.Reading b = n.reading();
                md.append(' ').append(signedMb(r.rss() - b.rss())).append(" / ")
                        .append(signedMb(r.nonHeapRss() - b.nonHeapRss())).append(" / **")
                        .append(signedMb(r.nonHeapTrimmed() - b.nonHeapTrimmed())).append("** / ")
                        .append(signedMb(r.heapUsedAfterGc() - b.heapUsedAfterGc())).append(" |");
            }
            md.append('\n');
        }
        md.append("\nWhat runs, per reading: the threads a configuration has that `none` has not at the same state "
                + "(kernel names, 15 characters), JFR's recorder (its threads; not `jcmd JFR.check`, which on JDK 17 "
                + "creates the recorder it asks about), async-profiler's library mapped (`/proc/<pid>/maps`), the "
                + "starter's look-back, and the load:\n\n| configuration | state | its own threads | JFR initialised | "
                + "libasyncProfiler mapped | look-back | notes |\n|---|---|---|---|---|---|---|\n");
        for (String st : STATES) {
            for (Config c : states.keySet()) {
                State s = states.get(c).get(st);
                if (s == null) {
                    continue;
                }
                State n = none.get(st);
                md.append("| ").append(c.id).append(" | ").append(st).append(" | ")
                        .append(c == Config.NONE || n == null ? "–" : ownThreads(s.reading(), n.reading()))
                        .append(" | ").append(s.reading().jfrInitialised() ? "yes" : "no").append(" | ")
                        .append(s.reading().asyncProfilerMapped() ? "yes" : "no").append(" | ")
                        .append(s.lookback().isEmpty() ? "–" : s.lookback()).append(" | ").append(s.notes())
                        .append(" |\n");
            }
        }
        md.append('\n');
        if (nmt) {
            md.append(nmtReport(states));
        }
        return md.toString();
    }

    /** The thread names of {@code r} that {@code none} has not (or has fewer of). */
    private static String ownThreads(GuestProbe.Reading r, GuestProbe.Reading none) {
        List<String> out = new ArrayList<>();
        r.threads().forEach((name, k) -> {
            int base = none.threads().getOrDefault(name, 0);
            if (name.startsWith("http-nio-") || name.startsWith("Attach Listener")) {
                return; // Tomcat's pool grows with the load alike; the attach listener is jcmd's
            }
            if (k > base) {
                out.add(k - base > 1 ? "`" + name + "` ×" + (k - base) : "`" + name + "`");
            }
        });
        return out.isEmpty() ? "none" : String.join(", ", out);
    }

    private String nmtReport(Map<Config, Map<String, State>> states) throws IOException {
        StringBuilder md = new StringBuilder("## Native Memory Tracking\n\n");
        md.append("`jcmd <pid> VM.native_memory summary` at each reading (after the full GC), committed KB by category, "
                + "each configuration less `none` at the same state (the raw summaries: `<work>/<configuration>-<state>"
                + ".nmt`). NMT's committed is not resident: `Java Heap` is committed whole by `-Xms512m`; the other "
                + "categories are native memory the JVM asked for, mostly resident. *(peak ±N)*: the difference in "
                + "the category's malloc + arena peak (NMT's `peak=`), when it differs by 50 KB or more: memory "
                + "reached and freed since (glibc keeps much of it resident until trimmed). NMT counts the JVM's own "
                + "allocations only: a native library's mallocs (async-profiler's) are not in it, nor are mapped "
                + "jars. Categories shown when some difference is at least 50 KB.\n\n");
        Map<String, State> none = states.getOrDefault(Config.NONE, Map.of());
        for (String st : STATES) {
            State n = none.get(st);
            if (n == null || n.reading().nmtCommittedKb().isEmpty()) {
                continue;
            }
            List<Config> others = states.keySet().stream().filter(c -> c != Config.NONE && states.get(c).get(st) != null)
                    .toList();
            Set<String> cats = new LinkedHashSet<>(n.reading().nmtCommittedKb().keySet());
            others.forEach(c -> cats.addAll(states.get(c).get(st).reading().nmtCommittedKb().keySet()));
            List<String> shown = new ArrayList<>();
            for (String cat : cats) {
                long max = 0;
                for (Config c : others) {
                    max = Math.max(max, Math.abs(kb(states.get(c).get(st), cat) - kb(n, cat)));
                }
                if (max >= 50 || cat.equals("Total")) {
                    shown.add(cat);
                }
            }
            shown.sort((a, b) -> a.equals("Total") ? 1 : b.equals("Total") ? -1
                    : Long.compare(maxDiff(states, others, st, b, n), maxDiff(states, others, st, a, n)));
            md.append("### ").append(st).append("\n\n| NMT category | none, KB |");
            others.forEach(c -> md.append(' ').append(c.id).append(" − none, KB |"));
            md.append("\n|---|---:|").append("---:|".repeat(others.size())).append('\n');
            for (String cat : shown) {
                md.append("| ").append(cat).append(" | ").append(kb(n, cat)).append(" |");
                for (Config c : others) {
                    GuestProbe.Reading r = states.get(c).get(st).reading();
                    md.append(' ').append(signed(kb(states.get(c).get(st), cat) - kb(n, cat), 0));
                    Long peak = r.nmtPeakKb().get(cat);
                    Long nonePeak = n.reading().nmtPeakKb().get(cat);
                    if (peak != null && nonePeak != null && Math.abs(peak - nonePeak) >= 50) {
                        md.append(" (peak ").append(signed(peak - nonePeak, 0)).append(')');
                    }
                    md.append(" |");
                }
                md.append('\n');
            }
            md.append("\nLoaded classes (`jcmd <pid> VM.class_hierarchy`, hidden classes included, lambda and proxy "
                    + "numbers ignored) that `none` has not, by package:\n\n");
            Map<String, Integer> noneClasses = classes(n.reading().classesFile());
            for (Config c : others) {
                Map<String, Integer> cs = classes(states.get(c).get(st).reading().classesFile());
                Map<String, Integer> groups = new TreeMap<>();
                int extra = 0;
                for (Map.Entry<String, Integer> e : cs.entrySet()) {
                    int more = e.getValue() - noneClasses.getOrDefault(e.getKey(), 0);
                    if (more > 0) {
                        groups.merge(group(e.getKey()), more, Integer::sum);
                        extra += more;
                    }
                }
                List<Map.Entry<String, Integer>> top = new ArrayList<>(groups.entrySet());
                top.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
                md.append("- **").append(c.id).append("**: +").append(extra).append(": ").append(top.stream()
                        .limit(14).map(e -> "`" + e.getKey() + "` " + e.getValue()).collect(Collectors.joining(", ")))
                        .append(top.size() > 14 ? ", …" : "").append('\n');
            }
            md.append("\nThe live heap (`jcmd <pid> GC.class_histogram`, which runs a full GC of its own, a few seconds "
                    + "after the reading's; under load the requests in flight are in it): in all against `none`'s, and "
                    + "the classes whose instances take the most more bytes:\n\n");
            Map<String, long[]> noneHisto = histogram(n.reading().histogramFile());
            for (Config c : others) {
                Map<String, long[]> h = histogram(states.get(c).get(st).reading().histogramFile());
                List<Map.Entry<String, Long>> more = new ArrayList<>();
                long total = 0;
                for (Map.Entry<String, long[]> e : h.entrySet()) {
                    long d = e.getValue()[1] - noneHisto.getOrDefault(e.getKey(), new long[2])[1];
                    total += d;
                    more.add(Map.entry(e.getKey(), d));
                }
                for (Map.Entry<String, long[]> e : noneHisto.entrySet()) {
                    if (!h.containsKey(e.getKey())) {
                        total -= e.getValue()[1];
                    }
                }
                more.sort(Map.Entry.<String, Long>comparingByValue().reversed());
                md.append("- **").append(c.id).append("**: ").append(signed(total / 1e6, 2)).append(" MB in all; ")
                        .append(more.stream().limit(10).filter(e -> e.getValue() > 0).map(e -> "`" + e.getKey() + "` "
                                + signed(e.getValue() / 1e3, 0) + " KB").collect(Collectors.joining(", ")))
                        .append('\n');
            }
            md.append('\n');
        }
        return md.toString();
    }

    private static long maxDiff(Map<Config, Map<String, State>> states, List<Config> others, String st, String cat,
            State none) {
        long max = 0;
        for (Config c : others) {
            max = Math.max(max, Math.abs(kb(states.get(c).get(st), cat) - kb(none, cat)));
        }
        return max;
    }

    private static long kb(State s, String cat) {
        return s.reading().nmtCommittedKb().getOrDefault(cat, 0L);
    }

    private static final Pattern HISTO_LINE = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

    /** Class → {instances, bytes} from a GC.class_histogram listing (lambda and proxy numbers removed). */
    static Map<String, long[]> histogram(Path listing) throws IOException {
        Map<String, long[]> out = new TreeMap<>();
        if (listing == null) {
            return out;
        }
        for (String line : Files.readAllLines(listing)) {
            Matcher m = HISTO_LINE.matcher(line);
            if (m.find()) {
                long[] v = out.computeIfAbsent(m.group(3).replaceAll("\\$\\$Lambda\\$\\d+(/0x[0-9a-f]+)?|\\$Proxy\\d+",
                        "\\$\\$N"), k -> new long[2]);
                v[0] += Long.parseLong(m.group(1));
                v[1] += Long.parseLong(m.group(2));
            }
        }
        return out;
    }

    private static final Pattern CLASS_LINE = Pattern.compile("^[|\\- ]*([\\w.$]+)/\\S+");

    /** Class name (lambda and proxy numbers removed) → how many loaded, from a VM.class_hierarchy listing. */
    static Map<String, Integer> classes(Path listing) throws IOException {
        Map<String, Integer> out = new TreeMap<>();
        if (listing == null) {
            return out;
        }
        for (String line : Files.readAllLines(listing)) {
            Matcher m = CLASS_LINE.matcher(line);
            if (m.find()) {
                out.merge(m.group(1).replaceAll("\\$\\$Lambda\\$\\d+|\\$Proxy\\d+|Accessor\\d+", "\\$\\$N"), 1,
                        Integer::sum);
            }
        }
        return out;
    }

    /** A package group for the report: the starter's, JFR's, async-profiler's, Pyroscope's, else 3 segments. */
    static String group(String cls) {
        for (String p : List.of("dev.cpuprofiler.", "jdk.jfr.", "one.profiler.", "io.pyroscope.", "tools.jackson.",
                "io.micrometer.")) {
            if (cls.startsWith(p)) {
                return p + "*";
            }
        }
        String[] parts = cls.split("\\.");
        int keep = cls.startsWith("org.springframework.") ? 4 : 3;
        return String.join(".", Arrays.copyOf(parts, Math.min(keep, Math.max(1, parts.length - 1)))) + ".*";
    }

    // ---------------------------------------------------------------------------------------------- helpers

    private static String file(Config c) {
        return c.id.replace("+", "-").replace(", ", "-");
    }

    private static String mb(long bytes) {
        return bytes < 0 ? "–" : num(bytes / 1e6, 1);
    }

    private static String signedMb(long bytes) {
        return signed(bytes / 1e6, 1);
    }

    private static String signedSpread(List<Double> v, int decimals) {
        if (v.isEmpty()) {
            return "–";
        }
        return signed(Stats.median(v), decimals) + " (" + signed(Stats.min(v), decimals) + " – "
                + signed(Stats.max(v), decimals) + ")";
    }

    private static String signed(double v, int decimals) {
        if (Double.isNaN(v)) {
            return "–";
        }
        return (v >= 0 ? "+" : "") + num(v, decimals);
    }

    private static String git() {
        try {
            Process p = new ProcessBuilder("git", "describe", "--always", "--dirty").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return out.isEmpty() ? "?" : out;
        } catch (Exception e) {
            return "?";
        }
    }
}
