package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import tools.jackson.databind.JsonNode;

/**
 * Detection latency: from the moment sustained load starts in the app to the start of the CPU-triggered session,
 * against what the settings promise (docs/how-it-works.md: average-window + polling-interval when the load starts
 * with a baseline interval, average-window + rolling-history-interval + polling-interval in the worst case).
 */
final class DetectionSection {

    private record Case(String label, int interval, int window, int polling) {
        double aligned() {
            return window + polling;
        }

        double worst() {
            return window + interval + polling;
        }
    }

    /**
     * @param loadPercent the app's CPU% from the load's start to detection (or the end), from /proc/<pid>/stat over
     *        the CPUs it may use: the promise assumes this is above the threshold
     */
    private record Outcome(Case c, double phase, double latency, double average, double loadPercent, String engine,
            String note) {

        /** The load cleared the threshold by a margin, so the promise applies; otherwise the run says little. */
        boolean loadClear() {
            return loadPercent >= THRESHOLD * 1.4;
        }
    }

    /**
     * Low, so that spinning threads clear it even on a saturated shared machine (an idle app sits near 0%); the
     * documented bounds assume the load is above the threshold, and the table shows what CPU% the load really reached.
     */
    private static final int THRESHOLD = 25;

    private DetectionSection() {
    }

    static void run(Ctx ctx) throws Exception {
        Settings s = ctx.settings;
        List<Case> cases = new ArrayList<>();
        for (int i = 0; i < s.shortDetections(); i++) {
            cases.add(s.mode().equals("quick") ? new Case("short", 5, 5, 1) : new Case("short", 10, 10, 2));
        }
        if (s.defaultDetection()) {
            cases.add(new Case("defaults", 30, 30, 5));
        }
        Random random = new Random();
        String load = Proc.loadAverage();
        List<Outcome> outcomes = new ArrayList<>();
        int n = 0;
        for (Case c : cases) {
            n++;
            if (ctx.remainingSeconds() < c.worst() + 2.0 * c.interval() + 60) {
                ctx.report.problem("detection (" + c.label() + ") skipped: time budget used up");
                continue;
            }
            System.out.printf("[detection] %s (interval %ds, window %ds, polling %ds)%n", c.label(), c.interval(),
                    c.window(), c.polling());
            try {
                outcomes.add(runOne(ctx, c, n, random));
            } catch (Exception e) {
                ctx.report.problem("detection " + c.label() + " failed: " + e.getMessage());
            }
        }
        StringBuilder md = new StringBuilder("## Detection latency\n\n");
        md.append(Proc.fmt("The app with the CPU trigger on (threshold %d%%, duration 5 s, engine auto), idle until at "
                + "least one baseline interval has completed, then at a random moment `POST /bench/burn` starts as "
                + "many spinning threads as CPUs. Latency = the session's `startedAt` − the load's start (both from "
                + "the app's clock). Phase = how far into a baseline interval the load started (intervals counted from "
                + "the app's ready event, when the sampler starts). The threshold is lower than the default 80 so that "
                + "load on a shared machine still crosses it; *load reached* is the app's own CPU%% (kernel's "
                + "/proc/<pid>/stat) from the load's start to the detection: the bounds assume it is above the "
                + "threshold, and a run where it is not clearly above (< 1.4 × threshold) says nothing about the "
                + "product. Load average before: %s.%n%n", THRESHOLD, load));
        md.append("| settings (interval / window / polling) | phase s | latency s | aligned bound s | worst-case bound s "
                + "| within | load reached | average seen by the product | notes |\n|---|---|---|---|---|---|---|---|---|\n");
        boolean allWithin = true;
        boolean missedWithClearLoad = false;
        StringBuilder measured = new StringBuilder();
        for (Outcome o : outcomes) {
            boolean within = !Double.isNaN(o.latency()) && o.latency() <= o.c().worst() + 1;
            allWithin &= within;
            missedWithClearLoad |= !within && o.loadClear();
            md.append("| ").append(o.c().label()).append(": ").append(o.c().interval()).append(" s / ")
                    .append(o.c().window()).append(" s / ").append(o.c().polling()).append(" s | ")
                    .append(num(o.phase(), 1)).append(" | ").append(num(o.latency(), 1)).append(" | ")
                    .append(num(o.c().aligned(), 0)).append(" | ").append(num(o.c().worst(), 0)).append(" | ")
                    .append(within ? "yes" : "**no**").append(" | ").append(num(o.loadPercent(), 1)).append("% | ")
                    .append(num(o.average(), 1)).append("% | ")
                    .append(o.note()).append(o.loadClear() ? "" : (o.note().isEmpty() ? "" : "; ")
                            + "disturbed: the load did not clearly clear the threshold").append(" |\n");
            measured.append(measured.length() == 0 ? "" : "; ").append(o.c().label()).append(' ')
                    .append(num(o.latency(), 1)).append(" s (bound ").append(num(o.c().worst(), 0)).append(" s)");
        }
        ctx.report.section(md.toString());
        ctx.report.goal("Detection latency", "≤ average-window + rolling-history-interval + polling-interval",
                outcomes.isEmpty() ? "not measured" : measured.toString(),
                outcomes.isEmpty() ? Report.Verdict.NOT_MEASURED : allWithin ? Report.Verdict.MET
                        : missedWithClearLoad ? Report.Verdict.MISSED : Report.Verdict.UNCLEAR,
                allWithin ? "the documented bound holds in every run"
                        : missedWithClearLoad ? "late although the load was clearly above the threshold"
                        : "late only in runs where other processes kept the load from clearly clearing the threshold");
    }

    private static Outcome runOne(Ctx ctx, Case c, int n, Random random) throws Exception {
        List<String> props = List.of("profiler.enabled=true", "profiler.cpu.enabled=true",
                "profiler.cpu.startup-grace=0s", // the load starts one interval after ready: no grace to wait out
                "profiler.cpu.threshold=" + THRESHOLD, "profiler.cpu.duration=5s",
                "profiler.cpu.rolling-history-interval=" + c.interval() + "s",
                "profiler.cpu.average-window=" + c.window() + "s", "profiler.cpu.polling-interval=" + c.polling() + "s",
                "profiler.cpu.rolling-history-size=" + Math.max(60, 4 * c.interval()) + "s");
        try (App app = App.start(ctx, "detection-" + n + "-" + c.label(), false, false, List.of(), props)) {
            long readyAt = Http.get(app.base + "/bench/info", 10).json().path("readyAtEpochMillis").asLong(0);
            // At least one whole interval, then a random phase within the next.
            long startAt = readyAt + c.interval() * 1000L + (long) (random.nextDouble() * c.interval() * 1000);
            long wait = startAt - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            double burnSeconds = c.worst() + 30;
            long cpu0 = Proc.cpuNanos(app.pid());
            long wall0 = System.nanoTime();
            JsonNode burn = Http.post(app.base + "/bench/burn?seconds=" + burnSeconds, null, 10).json();
            long loadStart = burn.path("startedAtEpochMillis").asLong(0);
            double phase = ((loadStart - readyAt) % (c.interval() * 1000L)) / 1000.0;
            long deadline = System.nanoTime() + (long) ((c.worst() + 25) * 1e9);
            String note = "";
            while (System.nanoTime() < deadline) {
                JsonNode status = Http.get(app.base + "/actuator/cpuprofiler", 10).json();
                JsonNode session = status.path("session");
                if (session.isNull() || session.isMissingNode()) {
                    session = status.path("latestProfile");
                }
                if (!session.isNull() && !session.isMissingNode()) {
                    long started = Instant.parse(session.path("startedAt").asString()).toEpochMilli();
                    double average = status.path("cpu").path("averagePercent").asDouble(Double.NaN);
                    if (!"CPU".equals(session.path("trigger").asString(""))) {
                        note = "session trigger " + session.path("trigger").asString("");
                    }
                    double loadPercent = 100.0 * (Proc.cpuNanos(app.pid()) - cpu0) / ((System.nanoTime() - wall0)
                            * (double) ctx.cpus);
                    Http.post(app.base + "/bench/burn/stop", null, 10);
                    return new Outcome(c, phase, (started - loadStart) / 1000.0, average, loadPercent,
                            session.path("engine").asString(""), note);
                }
                Thread.sleep(200);
            }
            JsonNode status = Http.get(app.base + "/actuator/cpuprofiler", 10).json();
            double loadPercent = 100.0 * (Proc.cpuNanos(app.pid()) - cpu0) / ((System.nanoTime() - wall0)
                    * (double) ctx.cpus);
            Http.post(app.base + "/bench/burn/stop", null, 10);
            return new Outcome(c, phase, Double.NaN, status.path("cpu").path("averagePercent").asDouble(Double.NaN),
                    loadPercent, "",
                    "not detected within the worst-case bound + 25 s (state " + status.path("state").asString("") + ")");
        }
    }
}
