package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The spike part of the peers section: in each tool's app in turn (the same apps, after the busy part), a CPU spike
 * of known split ({@code POST /bench/split}: cpus + 1 workers of the 60/30/10 {@code SplitWorkload}, the process at
 * the whole machine), then what the tool reports for it and how long after the spike's start it is readable.
 */
final class PeersSpike {

    private record Result(String label, double spikeSeconds, double readable, String how, SpikeShares shares,
            SpikeShares truth, Meter meter) {
    }

    /** The app's CPU and everyone else's over the spike, in % of the machine. */
    private static final class Meter {
        private final long pid;
        private final int cpus;
        private final long cpu0;
        private final long[] m0 = Proc.machineJiffies();
        private final long w0 = System.nanoTime();
        private double process = Double.NaN;
        private double others = Double.NaN;

        Meter(App app, int cpus) {
            this.pid = app.pid();
            this.cpus = cpus;
            this.cpu0 = Proc.cpuNanos(pid);
        }

        void stop() {
            long cpu = Proc.cpuNanos(pid) - cpu0;
            long wall = System.nanoTime() - w0;
            process = 100.0 * cpu / ((double) wall * cpus);
            others = Proc.externalPercent(m0, Proc.machineJiffies(), cpu, wall, cpus);
        }

        String text() {
            return num(process, 0) + "% / " + num(others, 0) + "%";
        }
    }

    /** More workers than CPUs (4 per CPU + 2), so the spike keeps most of the machine against other processes. */
    static int workers(Ctx ctx) {
        return 4 * ctx.cpus + 2;
    }

    private PeersSpike() {
    }

    static void run(Ctx ctx, Map<PeerTool, App> apps, PyroscopeSink sink, StringBuilder md) throws Exception {
        List<Result> results = new ArrayList<>();
        for (PeerTool t : List.of(PeerTool.OURS, PeerTool.PYROSCOPE, PeerTool.JFR, PeerTool.ASYNC_PROFILER)) {
            App app = apps.get(t);
            if (app == null) {
                continue;
            }
            System.out.printf("[peers] spike in %s%n", t.id);
            try {
                if (t == PeerTool.OURS) {
                    Result first = ours(ctx, app, "ours");
                    results.add(first);
                    // Other processes can hold the app below the 80% trigger for the whole spike (the table shows
                    // the app's and others' CPU): then once more, if the budget allows.
                    if (Double.isNaN(first.readable())
                            && ctx.remainingSeconds() > ctx.settings.peers().oursSpikeMax() + 300) {
                        results.add(ours(ctx, app, "ours, 2nd spike"));
                    }
                    continue;
                }
                results.add(switch (t) {
                    case PYROSCOPE -> pyroscope(ctx, app, sink);
                    case JFR -> jfr(ctx, app);
                    default -> async(ctx, app);
                });
            } catch (Exception e) {
                ctx.report.problem("peers spike in " + t.id + " failed: " + e);
                e.printStackTrace(System.out);
            }
        }
        md.append(Proc.fmt("### The spike%n%n`POST /bench/split?threads=%d` in one app at a time (the others idle): "
                + "%d workers (4 a CPU + 2, so that the spike keeps most of the machine when other processes run) "
                + "of the fixtures' `SplitWorkload`, each splitting its CPU 60/30/10 across `hotSixty`/"
                + "`warmThirty`/`coolTen`, so the process uses the whole machine (above the starter's 80%% trigger). "
                + "Truth: the workers' own CPU clocks around each method, summed, warm-up included. Reported: the "
                + "three methods' shares among the samples through any of them (these methods run only in the spike, "
                + "so a recording's samples of them are the spike's). The starter's app is the one of the rounds "
                + "above: its 1-minute start-up grace long over, no CPU-triggered profile before (so no cooldown), "
                + "every default; its spike runs until its CPU-triggered profile is readable (at most %.0f s; when "
                + "other processes kept the app below 80%% all along, a 2nd spike follows if the budget allows), the "
                + "others' for %.0f s.%n%n", workers(ctx), workers(ctx), ctx.settings.peers().oursSpikeMax(),
                ctx.settings.peers().spikeSeconds()));
        md.append("| tool | spike s | CPU: the app / others, % of the machine | readable after the spike's start | what readable means here | split samples | "
                + "hot / warm / cool % reported | truth % | largest error, points |\n|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            md.append("| ").append(r.label()).append(" | ").append(num(r.spikeSeconds(), 0)).append(" | ")
                    .append(r.meter().text()).append(" | ")
                    .append(Double.isNaN(r.readable()) ? "not readable" : num(r.readable(), 1) + " s").append(" | ")
                    .append(r.how().replace("|", "\\|")).append(" | ").append(r.shares().total()).append(" | ")
                    .append(r.shares().text()).append(" | ").append(r.truth().text()).append(" | ")
                    .append(num(r.shares().maxError(r.truth()), 1)).append(" |\n");
        }
        md.append('\n');
    }

    /** A spike of the configured length: started, left to run, stopped with its truth; the meter stopped with it. */
    private record FixedSpike(long start, SpikeShares truth) {

        static FixedSpike run(Ctx ctx, App app, Meter meter) throws Exception {
            double seconds = ctx.settings.peers().spikeSeconds();
            long start = startSpike(app, seconds + 60, workers(ctx));
            Thread.sleep((long) (seconds * 1000));
            SpikeShares truth = stopSpike(app);
            meter.stop();
            return new FixedSpike(start, truth);
        }
    }

    private static long startSpike(App app, double seconds, int threads) throws Exception {
        JsonNode r = Http.post(app.base + "/bench/split?threads=" + threads + "&seconds=" + seconds, null, 10).json();
        return r.path("startedAtEpochMillis").asLong();
    }

    private static SpikeShares stopSpike(App app) throws Exception {
        JsonNode t = Http.post(app.base + "/bench/split/stop", null, 20).json();
        return new SpikeShares(t.path("hotNanos").asLong(), t.path("warmNanos").asLong(), t.path("coolNanos").asLong());
    }

    private static double since(long startMillis) {
        return (System.currentTimeMillis() - startMillis) / 1000.0;
    }

    /** Polls the status until a CPU-triggered profile that was not there before is listed (it is then readable). */
    private static Result ours(Ctx ctx, App app, String label) throws Exception {
        JsonNode status = Http.get(app.base + "/actuator/cpuprofiler", 10).json();
        Set<String> before = new HashSet<>();
        status.path("profiles").forEach(p -> before.add(p.path("id").asString("")));
        String cooldown = status.path("trigger").path("cooldownUntil").asString("");
        double max = ctx.settings.peers().oursSpikeMax();
        Meter meter = new Meter(app, ctx.cpus);
        long start = startSpike(app, max, workers(ctx));
        String id = null;
        double readable = Double.NaN;
        double detected = Double.NaN;
        String last = "";
        while (since(start) < max) {
            JsonNode s = Http.get(app.base + "/actuator/cpuprofiler", 10).json();
            last = Proc.fmt("state %s, 30-s average %s%%, highest %s%%, look-back %s", s.path("state").asString(""),
                    s.path("cpu").path("averagePercent").asString(""),
                    s.path("cpu").path("highestAveragePercent").asString(""),
                    s.path("lookback").path("state").asString(""));
            if (Double.isNaN(detected) && "CPU".equals(s.path("session").path("trigger").asString(""))) {
                detected = since(start);
            }
            for (JsonNode p : s.path("profiles")) {
                if ("CPU".equals(p.path("trigger").asString("")) && !before.contains(p.path("id").asString(""))) {
                    id = p.path("id").asString("");
                }
            }
            if (id != null) {
                readable = since(start);
                break;
            }
            Thread.sleep(500);
        }
        double spike = since(start);
        SpikeShares truth = stopSpike(app);
        meter.stop();
        if (id == null) {
            return new Result(label, spike, Double.NaN, "no CPU-triggered profile within " + num(max, 0) + " s"
                    + (cooldown.isEmpty() ? "" : " (cooldown until " + cooldown + ")") + "; its status at the end: "
                    + last, SpikeShares.NONE, truth, meter);
        }
        String collapsed = Http.get(app.base + "/actuator/cpuprofiler/" + id + "?format=collapsed", 20).body();
        JsonNode profile = Http.get(app.base + "/actuator/cpuprofiler/" + id + "?format=json", 20).json();
        String how = "status lists the CPU-triggered profile (session seen recording at " + num(detected, 1) + " s; "
                + "session from " + rel(profile.path("startedAt"), start) + ", look-back part from "
                + rel(profile.path("lookback").path("startedAt"), start) + " after the spike's start); shares from "
                + "`?format=collapsed`, look-back part included";
        return new Result(label, spike, readable, how, SpikeShares.ofCollapsed(collapsed), truth, meter);
    }

    private static String rel(JsonNode iso, long startMillis) {
        String s = iso.asString("");
        if (s.isEmpty()) {
            return "?";
        }
        return num((Instant.parse(s).toEpochMilli() - startMillis) / 1000.0, 1) + " s";
    }

    /** The sink's uploads whose window overlaps the spike; readable when the first with split samples arrived. */
    private static Result pyroscope(Ctx ctx, App app, PyroscopeSink sink) throws Exception {
        Meter meter = new Meter(app, ctx.cpus);
        FixedSpike fixed = FixedSpike.run(ctx, app, meter);
        long start = fixed.start();
        SpikeShares truth = fixed.truth();
        long end = System.currentTimeMillis();
        long deadline = end + 25_000; // the upload interval is 10 s: wait for the one that covers the spike's end
        while (System.currentTimeMillis() < deadline
                && sink.uploads().stream().noneMatch(u -> u.fromSeconds() * 1000 > end)) {
            Thread.sleep(500);
        }
        SpikeShares shares = SpikeShares.NONE;
        double readable = Double.NaN;
        int covering = 0;
        List<PyroscopeSink.Upload> uploads = sink.uploads();
        for (int i = 0; i < uploads.size(); i++) {
            PyroscopeSink.Upload u = uploads.get(i);
            if (u.untilSeconds() * 1000 + 999 < start || u.fromSeconds() * 1000 > end) {
                continue;
            }
            covering++;
            Path file = ctx.work.resolve("peers-pyroscope-upload-" + (i + 1) + ".jfr");
            Files.write(file, u.jfr());
            SpikeShares s = SpikeShares.ofRecordingFile(file);
            if (s.total() > 0 && Double.isNaN(readable)) {
                readable = (u.arrivedAtMillis() - start) / 1000.0;
            }
            shares = shares.plus(s);
        }
        String how = Proc.fmt("the first upload to the sink with split samples arrived (%d uploads cover the spike, "
                + "%d in all, %d unreadable); shares over them", covering, sink.uploads().size(), sink.failures());
        return new Result(PeerTool.PYROSCOPE.id, (end - start) / 1000.0, readable, how, shares, truth, meter);
    }

    /** {@code jcmd <pid> JFR.dump} 5 s into the spike (timed) and after it (the shares). */
    private static Result jfr(Ctx ctx, App app) throws Exception {
        double seconds = ctx.settings.peers().spikeSeconds();
        Meter meter = new Meter(app, ctx.cpus);
        long start = startSpike(app, seconds + 60, workers(ctx));
        Thread.sleep(5_000);
        Path early = ctx.work.resolve("peers-jfr-early.jfr");
        long d0 = System.nanoTime();
        String out = dump(app, early);
        double dumpSeconds = (System.nanoTime() - d0) / 1e9;
        double earlyAt = since(start);
        SpikeShares earlyShares = Files.isRegularFile(early) ? SpikeShares.ofJfr(early.toString()) : SpikeShares.NONE;
        Thread.sleep(Math.max(0, (long) (seconds * 1000) - (System.currentTimeMillis() - start)));
        SpikeShares truth = stopSpike(app);
        meter.stop();
        double spike = since(start);
        Path last = ctx.work.resolve("peers-jfr.jfr");
        dump(app, last);
        SpikeShares shares = Files.isRegularFile(last) ? SpikeShares.ofJfr(last.toString()) : SpikeShares.NONE;
        String how = earlyShares.total() > 0
                ? Proc.fmt("`jcmd <pid> JFR.dump` works at any moment: the one 5 s in took %.1f s and held %d split "
                        + "samples; shares from a dump after the spike", dumpSeconds, earlyShares.total())
                : "the dump 5 s in failed or held no split samples: " + out.lines().findFirst().orElse("");
        return new Result(PeerTool.JFR.id, spike, earlyShares.total() > 0 ? earlyAt : Double.NaN, how, shares, truth,
                meter);
    }

    private static String dump(App app, Path file) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(app.pid()), "JFR.dump", "name=peers",
                "filename=" + file).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        return out;
    }

    /** async-profiler's agent writes its file only when it stops: here at JVM exit, right after the spike. */
    private static Result async(Ctx ctx, App app) throws Exception {
        Meter meter = new Meter(app, ctx.cpus);
        FixedSpike fixed = FixedSpike.run(ctx, app, meter);
        long start = fixed.start();
        SpikeShares truth = fixed.truth();
        double spike = since(start);
        app.close(); // SIGTERM: the agent stops and writes its file on the way out
        double readable = since(start);
        Path file = PeerTool.asyncOutput(ctx);
        SpikeShares shares = Files.isRegularFile(file) ? SpikeShares.ofJfr(file.toString()) : SpikeShares.NONE;
        String how = "its `file=` is written only when the profiler stops (JVM exit or `asprof stop`): here the JVM "
                + "was stopped right after the spike (" + num(readable - spike, 1) + " s to exit); until then nothing "
                + "is readable";
        return new Result(PeerTool.ASYNC_PROFILER.id, spike, readable, how, shares, truth, meter);
    }
}
