package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import tools.jackson.databind.JsonNode;

/**
 * Whole-process overhead of the benchmark app under a fixed CPU-bound workload and under wrk. One JVM per variant
 * (no profiler, a session per engine, async-profiler's own agent, a JFR recording with the bundled {@code profile}
 * settings; JDK 17, and JDK 25 for jfr-cpu-time), each warmed up for long enough that the JIT has compiled the web
 * stack (it takes about 40 s of load on 2 CPUs), then measured several times in that JVM.
 *
 * <ul>
 * <li>Session variants alternate monitoring only (A) and an on-demand session (B): A B A B A B A. Each B is compared
 * with the mean of the A before and the A after it, so slow drifts (JIT, the machine) cancel; monitoring alone costs a
 * few hundredths of a percent of one core, so A stands for "no profiler" (the across-JVM table checks it against the
 * no-profiler JVM). The goal is judged on these pairs.</li>
 * <li>Other variants are measured the same number of times (the user's alternatives, which are context and not a
 * goal, one time fewer); across-JVM ratios are medians over a variant's measurements divided by the no-profiler JVM's
 * (same JDK).</li>
 * <li>Look-back ({@code profiler.cpu.lookback}) records only while the CPU trigger is on, so its JVM keeps the
 * trigger on with a threshold it can never pass (100: the trigger needs strictly more), next to a JVM with the same
 * settings and look-back off: their ratio is look-back's own cost across JVMs.</li>
 * </ul>
 */
final class OverheadSection {

    /** Others' CPU (% of the machine) above which a measurement counts as disturbed. */
    static final double DISTURBED = 10;

    /** One configuration of the app. */
    record Variant(String id, String label, String baseline, boolean jdk25, boolean asyncOnClasspath,
            List<String> jvmFlags, List<String> props, String sessionEngine) {

        /** The user's alternatives (async-profiler's agent, a JFR recording): context, measured one time fewer. */
        boolean alternative() {
            return id.startsWith("agent:") || id.startsWith("jfr:");
        }

        boolean lookback() {
            return props.stream().anyMatch(p -> p.startsWith(LOOKBACK + "="));
        }
    }

    static final String LOOKBACK = "profiler.cpu.lookback";

    /**
     * One measurement of both workloads. {@code cpuPerCpuSecond} and {@code requestsPerCpuSecond} divide the work done
     * by the CPU time the app's process consumed meanwhile.
     */
    record Phase(double cpuOps, double cpuPerCpuSecond, double othersCpu, double rps, double requestsPerCpuSecond,
            double p50, double p99, long errors, double othersHttp, int attempts) {
    }

    /**
     * One variant's JVM: {@code plain} are its measurements without a session (monitoring only, or whatever the
     * variant runs from start), {@code session} those during a session (B), interleaved with {@code plain} as
     * A B A B ... A for session variants.
     */
    record Run(Variant variant, List<Phase> plain, List<Phase> session, List<Long> sessionSamples, String engine,
            String note, String warmUp, LookbackProbe lookback) {
    }

    private OverheadSection() {
    }

    static List<Variant> variants(Ctx ctx, List<String> skipped) {
        List<String> off = List.of("profiler.enabled=false");
        List<String> monitor = List.of("profiler.enabled=true", "profiler.cpu.enabled=false");
        // Look-back records only while the trigger is on (profiler.cpu.enabled=false turns it off too): keep the
        // trigger on with a threshold it cannot pass (CPU% is at most 100 and the trigger needs strictly more). No
        // start-up grace, so that the look-back arms during the measurement (above 60% of that threshold: the
        // loaded app is well above).
        List<String> triggerNever = List.of("profiler.enabled=true", "profiler.cpu.enabled=true",
                "profiler.cpu.threshold=100", "profiler.cpu.startup-grace=0s");
        List<Variant> v = new ArrayList<>();
        v.add(new Variant("none", "no profiler (`profiler.enabled=false`)", null, false, false, List.of(), off, null));
        v.add(new Variant("monitor", "`monitor`: starter, monitoring only, trigger on at threshold 100 (never fires), "
                + "look-back off (`" + LOOKBACK + "=0`)", "none", false, false, List.of(),
                with(triggerNever, LOOKBACK + "=0"), null));
        v.add(new Variant("monitor+lookback", "`monitor+lookback`: as `monitor`, with the default look-back (30 s at "
                + "50 ms), armed by the load", "none", false, false, List.of(),
                with(triggerNever, LOOKBACK + "=30s"), null));
        v.add(new Variant("session:jfr-execution", "starter, session: jfr-execution", "none", false, false, List.of(),
                with(monitor, "profiler.cpu.engine=jfr-execution"), "jfr-execution"));
        v.add(new Variant("session:async-profiler", "starter, session: async-profiler", "none", false, true,
                List.of(), with(monitor, "profiler.cpu.engine=async-profiler"), "async-profiler"));
        if (ctx.agentLibrary() != null) {
            v.add(new Variant("agent:async-profiler", "async-profiler's own agent, cpu, 10 ms", "none", false, false,
                    List.of("-agentpath:" + ctx.agentLibrary() + "=start,event=cpu,interval=10ms,file="
                            + ctx.work.resolve("agent-%p.collapsed") + ",collapsed"), off, null));
        } else {
            skipped.add("async-profiler's own agent: " + ctx.agentMissing());
        }
        v.add(new Variant("jfr:profile", "JFR recording, `settings=profile`", "none", false, false,
                List.of("-XX:StartFlightRecording=settings=profile,filename=" + ctx.work.resolve("jfr-profile-%p.jfr")),
                off, null));
        if (ctx.jvms.java25 != null) {
            v.add(new Variant("none@25", "no profiler, JDK 25", null, true, false, List.of(), off, null));
            v.add(new Variant("session:jfr-cpu-time@25", "starter, session: jfr-cpu-time, JDK 25", "none@25", true,
                    false, List.of(), with(monitor, "profiler.cpu.engine=jfr-cpu-time"), "jfr-cpu-time"));
        } else {
            skipped.add("jfr-cpu-time session: " + ctx.jvms.java25Missing);
        }
        return v;
    }

    private static List<String> with(List<String> base, String extra) {
        List<String> out = new ArrayList<>(base);
        out.add(extra);
        return out;
    }

    static void run(Ctx ctx) throws Exception {
        String wrk = ctx.wrk();
        if (wrk == null) {
            ctx.report.problem("HTTP workload skipped: " + ctx.wrkMissing() + ". The CPU-bound workload still runs.");
        }
        List<String> skipped = new ArrayList<>();
        List<Variant> variants = variants(ctx, skipped);
        skipped.forEach(x -> ctx.report.problem("overhead variant skipped: " + x));

        List<Run> runs = new ArrayList<>();
        List<String> loads = new ArrayList<>();
        long t0 = System.nanoTime();
        for (Variant v : variants) {
            if (ctx.remainingSeconds() < 150) {
                ctx.report.problem("overhead: time budget used up, " + v.id() + " not measured");
                continue;
            }
            loads.add(v.id() + ": " + Proc.loadAverage());
            System.out.printf("[overhead] %s%n", v.id());
            try {
                runs.add(measure(ctx, wrk, v));
            } catch (Exception e) {
                ctx.report.problem("overhead " + v.id() + " failed: " + e.getMessage());
            }
        }
        render(ctx, variants, runs, loads, (System.nanoTime() - t0) / 60e9, wrk != null);
    }

    private static Run measure(Ctx ctx, String wrk, Variant v) throws Exception {
        Settings s = ctx.settings;
        String name = "overhead-" + v.id().replace(':', '-').replace('@', '-').replace('+', '-');
        try (App app = App.start(ctx, name, v.jdk25(), v.asyncOnClasspath(), v.jvmFlags(), v.props())) {
            String url = app.base + "/api/quote?items=20";
            String note = "";
            if (v.sessionEngine() != null) {
                // A short session during warm-up, so the measured ones do not pay the one-off start-up (JFR or the
                // native library loading, class loading) that a long production session amortizes.
                startSession(app, 2);
            }
            // Warm-up: both workloads, until the web stack's throughput has settled (the JIT has compiled it).
            String warm = warmUp(ctx, app, wrk, url, name);
            if (v.id().startsWith("agent") && !Files.readString(app.child.log).contains("Profiling started")) {
                note = "agent did not report 'Profiling started'";
            }
            List<Phase> plain = new ArrayList<>();
            List<Phase> session = new ArrayList<>();
            List<Long> samples = new ArrayList<>();
            String engine = "";
            if (v.sessionEngine() == null) {
                int retried = 0;
                int repeats = repeats(s, v);
                for (int i = 1; i <= repeats; i++) {
                    Phase p = phase(ctx, app, wrk, url, name + "-" + i, s.attempts());
                    plain.add(p);
                    retried += p.attempts() > 1 ? 1 : 0;
                }
                if (retried > 0) {
                    note = (note.isEmpty() ? "" : note + "; ") + retried + " of " + repeats
                            + " measurements repeated (disturbed)";
                }
                LookbackProbe lookback = null;
                if (v.lookback()) {
                    lookback = LookbackProbe.of(app);
                    note = (note.isEmpty() ? "" : note + "; ") + (lookback.present() && !lookback.recording()
                            ? "look-back NOT recording at the end: " : "") + lookback.text();
                }
                return new Run(v, plain, session, samples, engine, note, warm, lookback);
            }
            awaitNoSession(app, 20);
            double sessionSeconds = Math.ceil(s.measureCpu() + s.measureWrk() + 6);
            plain.add(phase(ctx, app, wrk, url, name + "-a1", 1));
            for (int i = 1; i <= s.repeats(); i++) {
                JsonNode started = startSession(app, sessionSeconds);
                String e = started.path("engine").asString("");
                engine = engine.isEmpty() ? e : engine;
                if (!e.equals(v.sessionEngine()) && note.isEmpty()) {
                    note = "asked for " + v.sessionEngine() + ", got " + e;
                }
                Thread.sleep(1000); // recording; JFR delivers its first chunk about now
                session.add(phase(ctx, app, wrk, url, name + "-b" + i, 1));
                JsonNode running = Http.get(app.base + "/actuator/cpuprofiler", 10).json().path("session");
                if (running.isNull() || running.isMissingNode()) {
                    note = (note.isEmpty() ? "" : note + "; ") + "a session ended before its measurement did";
                    samples.add(0L);
                } else {
                    samples.add(running.path("samples").asLong(0));
                }
                awaitNoSession(app, sessionSeconds + 20);
                plain.add(phase(ctx, app, wrk, url, name + "-a" + (i + 1), 1));
            }
            return new Run(v, plain, session, samples, engine, note, warm, null);
        }
    }

    /** Measurements in a JVM without sessions: the user's alternatives one fewer (they are context, not a goal). */
    static int repeats(Settings s, Variant v) {
        return v.alternative() ? Math.max(1, s.repeats() - 1) : s.repeats();
    }

    /**
     * Two stages. First wrk in 5 s chunks until two consecutive chunks agree within 3% (at least {@code warmWrk}
     * seconds, at most {@code warmWrkMax}): the bulk of the JIT's work on the web stack. Then
     * whole measurement cycles (CPU-bound, then wrk: the workloads disturb each other's compiled code the first times
     * they alternate) until two consecutive cycles agree within 5% on both (2 to {@code warmCycles} cycles; full: 4).
     * Returns what happened.
     */
    private static String warmUp(Ctx ctx, App app, String wrk, String url, String name) throws Exception {
        Settings s = ctx.settings;
        long t0 = System.nanoTime();
        String result = "";
        if (wrk != null) {
            double previous = Double.NaN;
            int chunk = 0;
            List<String> rates = new ArrayList<>();
            boolean settled = false;
            while (true) {
                chunk++;
                double rps = Wrk.run(wrk, url, s.wrkConnections(), 5, ctx.work.resolve(name + "-warm-" + chunk + ".log"))
                        .requestsPerSecond();
                rates.add(num(rps, 0));
                double elapsed = (System.nanoTime() - t0) / 1e9;
                settled = !Double.isNaN(previous) && Math.abs(rps - previous) <= 0.03 * Math.max(rps, previous);
                if ((settled && elapsed >= s.warmWrk()) || elapsed >= s.warmWrkMax()) {
                    break;
                }
                previous = rps;
            }
            result = Proc.fmt("%.0f s wrk%s", (System.nanoTime() - t0) / 1e9, settled ? "" : " (not settled)");
            System.out.printf("[overhead]   warm-up wrk: req/s %s%n", String.join(" ", rates));
        }
        Phase previous = null;
        List<String> cycles = new ArrayList<>();
        boolean settled = false;
        int cycle = 0;
        while (cycle < s.warmCycles()) {
            cycle++;
            Phase p = phase(ctx, app, wrk, url, name + "-warm-cycle-" + cycle, 1);
            cycles.add(num(p.cpuOps(), 0) + (wrk == null ? "" : "/" + num(p.rps(), 0)));
            settled = previous != null && close(p.cpuOps(), previous.cpuOps())
                    && (wrk == null || close(p.rps(), previous.rps()));
            if (settled) {
                break;
            }
            previous = p;
        }
        System.out.printf("[overhead]   warm-up cycles (ops/s/req/s): %s%n", String.join(" ", cycles));
        return result + Proc.fmt(" + %d cycles%s", cycle, settled ? "" : " (not settled)");
    }

    private static boolean close(double a, double b) {
        return Math.abs(a - b) <= 0.05 * Math.max(a, b);
    }

    private static JsonNode startSession(App app, double seconds) throws IOException, InterruptedException {
        Http.Response r = Http.post(app.base + "/actuator/cpuprofiler",
                "{\"duration\":\"" + (long) seconds + "s\"}", 30);
        if (r.status() != 200) {
            throw new IOException("POST /actuator/cpuprofiler answered " + r.status() + ": " + r.body());
        }
        return r.json();
    }

    private static void awaitNoSession(App app, double seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < deadline) {
            JsonNode session = Http.get(app.base + "/actuator/cpuprofiler", 10).json().path("session");
            if (session.isNull() || session.isMissingNode()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IOException("the session did not end within " + seconds + " s");
    }

    /**
     * Both workloads, each repeated up to {@code attempts} times while other processes use more than
     * {@value #DISTURBED}% of the machine; the least disturbed attempt of each is kept.
     */
    private static Phase phase(Ctx ctx, App app, String wrk, String url, String name, int attempts) throws Exception {
        Settings s = ctx.settings;
        double[] cpu = null;
        int cpuAttempts = 0;
        while (cpuAttempts < attempts && (cpu == null || cpu[2] > DISTURBED)) {
            cpuAttempts++;
            long[] m0 = Proc.machineJiffies();
            long c0 = Proc.cpuNanos(app.pid());
            long w0 = System.nanoTime();
            JsonNode json = Http.post(app.base + "/bench/cpu?seconds=" + s.measureCpu(), null, s.measureCpu() + 60)
                    .json();
            long appCpu = Proc.cpuNanos(app.pid()) - c0;
            double others = Proc.externalPercent(m0, Proc.machineJiffies(), appCpu, System.nanoTime() - w0, ctx.cpus);
            if (cpu == null || others < cpu[2]) {
                cpu = new double[] {json.path("opsPerSecond").asDouble(Double.NaN),
                        json.path("ops").asDouble(Double.NaN) / (appCpu / 1e9), others};
            }
        }
        double[] http = {Double.NaN, Double.NaN, Double.NaN};
        Wrk.Result best = null;
        int httpAttempts = 0;
        while (wrk != null && httpAttempts < attempts && (best == null || http[2] > DISTURBED)) {
            httpAttempts++;
            long[] m0 = Proc.machineJiffies();
            long c0 = Proc.cpuNanos(app.pid());
            long w0 = System.nanoTime();
            Wrk.Result r = Wrk.run(wrk, url, s.wrkConnections(), s.measureWrk(),
                    ctx.work.resolve(name + "-wrk-" + httpAttempts + ".log"));
            long appCpu = Proc.cpuNanos(app.pid()) - c0;
            double others = Proc.externalPercent(m0, Proc.machineJiffies(), appCpu + Math.max(0, r.wrkCpuNanos()),
                    System.nanoTime() - w0, ctx.cpus);
            if (best == null || others < http[2]) {
                http = new double[] {r.requestsPerSecond(), r.requests() / (appCpu / 1e9), others};
                best = r;
            }
        }
        return new Phase(cpu[0], cpu[1], cpu[2], http[0], http[1], best == null ? Double.NaN : best.p50Millis(),
                best == null ? Double.NaN : best.p99Millis(), best == null ? 0 : best.errors(), http[2],
                Math.max(cpuAttempts, httpAttempts));
    }

    private static void render(Ctx ctx, List<Variant> variants, List<Run> runs, List<String> loads, double minutes,
            boolean http) {
        Settings s = ctx.settings;
        StringBuilder md = new StringBuilder("## Overhead (whole process)\n\n");
        md.append(Proc.fmt("The benchmark app (Spring Boot, `spring-boot-starter-webmvc` + `profiler-spring-boot-starter`,"
                        + " `-Xms512m -Xmx512m -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints` in every variant),"
                        + " one JVM per variant; %.1f min. Warm-up: wrk in 5 s chunks until two consecutive chunks agree "
                        + "within 3%% (at least %.0f s, at most %.0f s: the web stack needs 40 s or more of load on 2 "
                        + "CPUs before the JIT has compiled it), then whole measurement cycles until two agree within "
                        + "5%% (at most %d cycles; the two workloads disturb each other's compiled code the first "
                        + "times they alternate)."
                        + " **CPU-bound**: %d worker "
                        + "threads (as many as CPUs) run a fixed kernel (sort 512 ints, CRC32 4 KB, a string) for %.0f s;"
                        + " **HTTP**: `wrk -t1 -c%d -d%.0fs --latency` on `GET /api/quote?items=20` (BigDecimal "
                        + "pricing, sorting, ~2 KB of JSON). A measurement = one of each. Session variants measure "
                        + "A B A B … A (sessions per JVM: %d): A = monitoring only, B = during an on-demand session "
                        + "(`POST /actuator/cpuprofiler {\"duration\":\"%.0fs\"}`, 10 ms, the default period), after a "
                        + "2 s session during warm-up so the measured ones do not pay the one-off start-up. "
                        + "Measurements per other JVM: %d (the user's alternatives, async-profiler's agent and a JFR "
                        + "recording: %d). `monitor` and `monitor+lookback` keep the trigger on with threshold 100, "
                        + "which it never passes (look-back records only while the trigger is on; every other starter "
                        + "variant has it off, `profiler.cpu.enabled=false`).%n%n"
                        + "*Others' CPU* is the share of the whole machine used by processes other than the app and wrk "
                        + "during a measurement (`/proc/stat`); above %.0f%% a measurement counts as disturbed (outside "
                        + "the A/B sequences it is then repeated, at most %d attempts in all, the least disturbed kept). It "
                        + "cannot see other virtual machines on the same host.%n%n",
                minutes, s.warmWrk(), s.warmWrkMax(), s.warmCycles(), ctx.cpus, s.measureCpu(), s.wrkConnections(), s.measureWrk(),
                s.repeats(), Math.ceil(s.measureCpu() + s.measureWrk() + 6), s.repeats(), Math.max(1, s.repeats() - 1),
                DISTURBED, s.attempts()));
        md.append("Load average when each JVM started: ").append(String.join("; ", loads)).append(".\n\n");
        md.append("Warm-up per JVM: ").append(String.join("; ",
                runs.stream().map(r -> r.variant().id() + " " + r.warmUp()).toList())).append(".\n\n");

        // Within one JVM.
        md.append("### During a session, within one JVM (B / mean of the A before and after)\n\nMedian over the "
                + "sessions, [min–max]; first over the pairs where none of the three measurements was disturbed (how "
                + "many), then over all. Throughput ratio < 1 and p99 ratio > 1 are costs.\n\n"
                + "| engine | CPU-bound throughput ratio | HTTP throughput ratio | HTTP p99 ratio | CPU-bound ops per "
                + "CPU-s ratio | samples per session |\n|---|---|---|---|---|---|\n");
        Map<String, double[]> paired = new LinkedHashMap<>();
        for (Run r : runs) {
            if (r.session().isEmpty()) {
                continue;
            }
            List<Double> cpuClean = new ArrayList<>();
            List<Double> cpuAll = new ArrayList<>();
            List<Double> rpsClean = new ArrayList<>();
            List<Double> rpsAll = new ArrayList<>();
            List<Double> p99Clean = new ArrayList<>();
            List<Double> p99All = new ArrayList<>();
            List<Double> effAll = new ArrayList<>();
            for (int i = 0; i < r.session().size(); i++) {
                Phase b = r.session().get(i);
                Phase a1 = r.plain().get(i);
                Phase a2 = r.plain().get(i + 1);
                double cpu = b.cpuOps() / ((a1.cpuOps() + a2.cpuOps()) / 2);
                double rps = b.rps() / ((a1.rps() + a2.rps()) / 2);
                double p99 = b.p99() / ((a1.p99() + a2.p99()) / 2);
                cpuAll.add(cpu);
                rpsAll.add(rps);
                p99All.add(p99);
                effAll.add(b.cpuPerCpuSecond() / ((a1.cpuPerCpuSecond() + a2.cpuPerCpuSecond()) / 2));
                if (Math.max(b.othersCpu(), Math.max(a1.othersCpu(), a2.othersCpu())) <= DISTURBED) {
                    cpuClean.add(cpu);
                }
                if (Math.max(b.othersHttp(), Math.max(a1.othersHttp(), a2.othersHttp())) <= DISTURBED) {
                    rpsClean.add(rps);
                    p99Clean.add(p99);
                }
            }
            String engine = r.engine().isEmpty() ? r.variant().sessionEngine() : r.engine();
            md.append("| ").append(engine).append(r.variant().jdk25() ? " (JDK 25)" : "")
                    .append(" | ").append(cleanAndAll(cpuClean, cpuAll))
                    .append(" | ").append(http ? cleanAndAll(rpsClean, rpsAll) : "–")
                    .append(" | ").append(http ? cleanAndAll(p99Clean, p99All) : "–")
                    .append(" | ").append(ratio(effAll))
                    .append(" | ").append(String.join(", ", r.sessionSamples().stream().map(String::valueOf).toList()))
                    .append(" |\n");
            paired.put(r.variant().sessionEngine(), new double[] {Stats.median(cpuClean), Stats.median(rpsClean),
                    cpuClean.size(), rpsClean.size(), Stats.median(cpuAll), Stats.median(rpsAll),
                    (Stats.max(cpuClean) - Stats.min(cpuClean)) / 2, (Stats.max(rpsClean) - Stats.min(rpsClean)) / 2});
        }

        // Across JVMs.
        md.append("\n### Across JVMs (vs the no-profiler JVM on the same JDK)\n\nMedians over each row's "
                + "measurements; the ratio divides them by the no-profiler JVM's. \"Monitoring only, trigger off\" "
                + "rows are the A measurements of the session JVMs; `monitor` and `monitor+lookback` are JVMs of their "
                + "own, measured like the no-profiler JVM. JVM-to-JVM differences (JIT decisions, memory layout) add a few "
                + "percent of noise here that the within-JVM pairs above do not have. *Per CPU-s* = work per second "
                + "of CPU time the app's process consumed: the profiler's costs lower it, CPU taken by other processes "
                + "does not directly.\n\n"
                + "| variant | measurements | ops/s | throughput ratio | ops per CPU-s ratio | req/s | throughput ratio | "
                + "req per CPU-s ratio | p99 ms | p99 ratio | others' CPU % (cpu / http) | notes |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        Map<Boolean, List<Phase>> none = new LinkedHashMap<>();
        for (Run r : runs) {
            if (r.variant().baseline() == null) {
                none.put(r.variant().jdk25(), r.plain());
            }
        }
        for (boolean jdk25 : new boolean[] {false, true}) {
            List<Phase> base = none.get(jdk25);
            List<Phase> monitoring = new ArrayList<>();
            for (Run r : runs) {
                if (r.variant().jdk25() == jdk25 && !r.session().isEmpty()) {
                    monitoring.addAll(r.plain());
                }
            }
            for (Run r : runs) {
                if (r.variant().jdk25() != jdk25) {
                    continue;
                }
                if (r.variant().baseline() == null) {
                    row(md, r.variant().label(), r.plain(), null, http, r.note());
                    if (!monitoring.isEmpty()) {
                        row(md, "starter, monitoring only, trigger off" + (jdk25 ? ", JDK 25" : "")
                                + " (A measurements of the session JVMs)", monitoring, base, http, "");
                    }
                } else if (!r.session().isEmpty()) {
                    row(md, r.variant().label() + " (B measurements)", r.session(), base, http, r.note());
                } else {
                    row(md, r.variant().label(), r.plain(), base, http, r.note());
                }
            }
        }

        lookback(md, runs, http);

        md.append("\nEvery measurement (session JVMs in order A1 B1 A2 B2 …):\n\n| JVM | ops/s | ops per CPU-s | req/s | "
                + "req per CPU-s | p50 ms | p99 ms | others' CPU % (cpu / http) |\n|---|---|---|---|---|---|---|---|\n");
        for (Run r : runs) {
            List<Phase> order = new ArrayList<>();
            for (int i = 0; i < r.plain().size(); i++) {
                order.add(r.plain().get(i));
                if (i < r.session().size()) {
                    order.add(r.session().get(i));
                }
            }
            md.append("| ").append(r.variant().id())
                    .append(" | ").append(seq(order, Phase::cpuOps, 0))
                    .append(" | ").append(seq(order, Phase::cpuPerCpuSecond, 0))
                    .append(" | ").append(seq(order, Phase::rps, 0))
                    .append(" | ").append(seq(order, Phase::requestsPerCpuSecond, 0))
                    .append(" | ").append(seq(order, Phase::p50, 2))
                    .append(" | ").append(seq(order, Phase::p99, 2))
                    .append(" | ").append(seq(order, Phase::othersCpu, 0)).append(" / ")
                    .append(seq(order, Phase::othersHttp, 0)).append(" |\n");
        }
        ctx.report.section(md.toString());
        goal(ctx, paired, http);
    }

    /**
     * Look-back's own cost across JVMs: {@code monitor+lookback} over {@code monitor} (the same settings but
     * look-back), and both over the no-profiler JVM.
     */
    private static void lookback(StringBuilder md, List<Run> runs, boolean http) {
        Run lb = find(runs, "monitor+lookback");
        if (lb == null) {
            return;
        }
        Run mon = find(runs, "monitor");
        Run none = find(runs, "none");
        md.append("\n### Look-back, across JVMs\n\n");
        LookbackProbe p = lb.lookback();
        if (p == null || !p.present()) {
            md.append("**").append(p == null ? "look-back status not read" : p.text()).append("**: `").append(LOOKBACK)
                    .append("` was passed and ignored, so `monitor+lookback` ran the same configuration as `monitor` "
                            + "and these ratios show only JVM-to-JVM noise.\n\n");
        } else {
            md.append("Look-back's status at the end of its JVM: ").append(p.text()).append(".")
                    .append(p.recording() ? "" : " **It was not recording**: the ratios may not show its cost.")
                    .append("\n\n");
        }
        md.append("Ratios of the rows' medians (≥ 1 for throughput, ≤ 1 for p99: no cost). Look-back is expected to "
                + "cost a few tenths of a percent of one core, below the few percent JVM-to-JVM noise of these "
                + "ratios: read them as an upper bound, and the idle section's thread figures as the precise one.\n\n"
                + "| comparison | CPU-bound throughput | ops per CPU-s | HTTP req/s | req per CPU-s | HTTP p99 |\n"
                + "|---|---|---|---|---|---|\n");
        ratioRow(md, "`monitor+lookback` / `monitor`: look-back's own", lb, mon, http);
        ratioRow(md, "`monitor+lookback` / `none`", lb, none, http);
        ratioRow(md, "`monitor` / `none`: monitoring with the trigger on", mon, none, http);
    }

    private static Run find(List<Run> runs, String id) {
        return runs.stream().filter(r -> r.variant().id().equals(id)).findFirst().orElse(null);
    }

    private static void ratioRow(StringBuilder md, String label, Run a, Run b, boolean http) {
        List<Phase> x = a == null ? null : a.plain();
        List<Phase> y = b == null ? null : b.plain();
        md.append("| ").append(label)
                .append(" | ").append(num(median(x, Phase::cpuOps) / median(y, Phase::cpuOps), 3))
                .append(" | ").append(num(median(x, Phase::cpuPerCpuSecond) / median(y, Phase::cpuPerCpuSecond), 3))
                .append(" | ").append(http ? num(median(x, Phase::rps) / median(y, Phase::rps), 3) : "–")
                .append(" | ").append(http ? num(median(x, Phase::requestsPerCpuSecond)
                        / median(y, Phase::requestsPerCpuSecond), 3) : "–")
                .append(" | ").append(http ? num(median(x, Phase::p99) / median(y, Phase::p99), 3) : "–")
                .append(" |\n");
    }

    private static void row(StringBuilder md, String label, List<Phase> phases, List<Phase> base, boolean http,
            String note) {
        md.append("| ").append(label).append(" | ").append(phases.size())
                .append(" | ").append(num(median(phases, Phase::cpuOps), 0))
                .append(" | ").append(base == null ? "–" : num(median(phases, Phase::cpuOps) / median(base, Phase::cpuOps), 3))
                .append(" | ").append(base == null ? "–" : num(median(phases, Phase::cpuPerCpuSecond)
                        / median(base, Phase::cpuPerCpuSecond), 3))
                .append(" | ").append(http ? num(median(phases, Phase::rps), 0) : "–")
                .append(" | ").append(base == null || !http ? "–" : num(median(phases, Phase::rps) / median(base, Phase::rps), 3))
                .append(" | ").append(base == null || !http ? "–" : num(median(phases, Phase::requestsPerCpuSecond)
                        / median(base, Phase::requestsPerCpuSecond), 3))
                .append(" | ").append(http ? num(median(phases, Phase::p99), 2) : "–")
                .append(" | ").append(base == null || !http ? "–" : num(median(phases, Phase::p99) / median(base, Phase::p99), 3))
                .append(" | ").append(num(median(phases, Phase::othersCpu), 0)).append(" / ")
                .append(num(median(phases, Phase::othersHttp), 0))
                .append(" | ").append(note).append(" |\n");
    }

    private static double median(List<Phase> phases, ToDoubleFunction<Phase> f) {
        return phases == null ? Double.NaN : Stats.median(phases.stream().map(f::applyAsDouble).toList());
    }

    private static String seq(List<Phase> phases, ToDoubleFunction<Phase> f, int decimals) {
        return String.join(" · ", phases.stream().map(p -> num(f.applyAsDouble(p), decimals)).toList());
    }

    /**
     * Per engine and workload: the median of the clean pairs' ratios and their half-range (the scatter of single
     * pairs). Met when the median is at or above 0.99 by more than the scatter, missed when it is below by more than
     * the scatter, unclear otherwise: a 1% goal needs a machine whose pairs scatter by less than 1%.
     */
    private static void goal(Ctx ctx, Map<String, double[]> paired, boolean http) {
        if (paired.isEmpty()) {
            ctx.report.goal("Throughput during a session (10 ms)", "ratio ≥ 0.99", "no session measured",
                    Report.Verdict.NOT_MEASURED, "see skipped/failed");
            return;
        }
        StringBuilder measured = new StringBuilder();
        boolean allMet = true;
        boolean anyMissed = false;
        boolean anyUnmeasured = false;
        boolean allMediansAbove = true;
        double worstMedian = Double.NaN;
        double widest = 0;
        for (Map.Entry<String, double[]> e : paired.entrySet()) {
            double[] r = e.getValue();
            measured.append(measured.length() == 0 ? "" : "; ").append(e.getKey()).append(' ');
            for (int w = 0; w < (http ? 2 : 1); w++) {
                double median = r[w];
                double spread = r[6 + w];
                int n = (int) r[2 + w];
                measured.append(w == 0 ? "" : " / ").append(n == 0 ? "–" : num(median, 3) + " ±" + num(spread, 3));
                if (n < 2) {
                    anyUnmeasured = true;
                    allMet = false;
                    continue;
                }
                allMediansAbove &= median >= 0.99;
                worstMedian = Double.isNaN(worstMedian) ? median : Math.min(worstMedian, median);
                widest = Math.max(widest, spread);
                allMet &= median - spread >= 0.99;
                anyMissed |= median + spread < 0.99;
            }
        }
        measured.append(" (CPU-bound / HTTP: median of the session ÷ monitoring-only pairs in the same JVM ± half their "
                + "range)");
        Report.Verdict verdict;
        String why;
        if (anyMissed) {
            verdict = Report.Verdict.MISSED;
            why = "below 0.99 by more than the pairs' scatter: the session's own work (sampling, JFR streaming and "
                    + "parsing, merging into the tree) takes CPU the workload would have had";
        } else if (allMet) {
            verdict = Report.Verdict.MET;
            why = "every median above 0.99 by more than its pairs' scatter";
        } else if (Double.isNaN(worstMedian)) {
            verdict = Report.Verdict.UNCLEAR;
            why = (ctx.settings.repeats() < 2 ? "one session per engine in this run, so no engine has two pairs"
                    : Proc.fmt("no engine had two undisturbed pairs (other processes used more than %.0f%% of the "
                            + "machine during the others)", DISTURBED))
                    + ": no verdict from this run; the pairs over all measurements are in the overhead section";
        } else {
            verdict = Report.Verdict.UNCLEAR;
            why = (anyUnmeasured ? "some engines lack two undisturbed pairs; " : "")
                    + Proc.fmt("no cost above the noise (lowest median %s), but single pairs scatter by up to ±%.1f%%, "
                            + "so a 1%% goal is below this machine's resolution%s", num(worstMedian, 3), widest * 100,
                    allMediansAbove ? "; every median is at or above 0.99" : "");
        }
        ctx.report.goal("Throughput during a session (10 ms)", "ratio ≥ 0.99 vs no profiler", measured.toString(),
                verdict, why);
    }

    private static String cleanAndAll(List<Double> clean, List<Double> all) {
        return (clean.isEmpty() ? "–" : num(Stats.median(clean), 3)) + " (" + clean.size() + ") / " + ratio(all);
    }

    private static String cleanCount(List<Double> clean) {
        return clean.size() + (clean.isEmpty() ? "" : ": " + num(Stats.median(clean), 3));
    }

    private static String ratio(List<Double> values) {
        if (values.isEmpty()) {
            return "–";
        }
        String med = num(Stats.median(values), 3);
        return values.size() == 1 ? med : med + " [" + num(Stats.min(values), 3) + "–" + num(Stats.max(values), 3) + "]";
    }
}
