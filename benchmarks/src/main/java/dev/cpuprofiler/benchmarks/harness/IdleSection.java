package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import java.util.List;
import java.util.Map;

/**
 * The idle app's CPU time per minute without the profiler, with every default (sampler every 1 s, policy checked on
 * its tick every 5 s, trigger on, look-back on and armed only by CPU, so idle here) and with look-back off
 * ({@code profiler.cpu.lookback=0}), all three running side by side over the same span: the whole process from {@code /proc/<pid>/stat}
 * (utime + stime, 10 ms resolution), the profiler's own threads ({@code cpuprofiler-*}, from each thread's
 * {@code schedstat}, ns resolution), JFR's threads (look-back samples through JFR), and each one's resident set.
 */
final class IdleSection {

    /** Look-back's threads: {@code cpuprofiler-lookback} and {@code cpuprofiler-lookback-stream}, as /proc cuts them. */
    static final String LOOKBACK_THREADS = "cpuprofiler-loo";
    static final String LOOKBACK_OFF = "profiler.cpu.lookback=0";

    private IdleSection() {
    }

    /** One reading of one app. */
    private record Snap(long cpu, long[] profiler, long[] lookback, long[] jfr, Map<String, Long> groups,
            Map<Long, Proc.TaskCpu> tasks) {

        static Snap of(App app) {
            long pid = app.pid();
            return new Snap(Proc.cpuNanos(pid), Proc.threadsCpuNanos(pid, "cpuprofiler-"),
                    Proc.threadsCpuNanos(pid, LOOKBACK_THREADS), Proc.threadsCpuNanos(pid, "JFR "),
                    Proc.cpuByThreadGroup(pid), Proc.tasksCpu(pid, "cpuprofiler-", "JFR "));
        }
    }

    /**
     * Each profiler and JFR thread of one app over the span: ms CPU and wake-ups per minute (a thread that started
     * during the span counts from zero).
     */
    private static void perThread(StringBuilder md, String label, Snap a, Snap b, double perMinute) {
        if (b.tasks().isEmpty()) {
            md.append("| ").append(label).append(" | (no `cpuprofiler-*` or `JFR *` thread) | – | – |\n");
            return;
        }
        b.tasks().forEach((tid, t) -> {
            Proc.TaskCpu before = a.tasks().get(tid);
            long cpu = t.cpuNanos() - (before == null ? 0 : before.cpuNanos());
            long wakeUps = t.wakeUps() - (before == null ? 0 : before.wakeUps());
            md.append("| ").append(label).append(" | `").append(t.name()).append("` | ")
                    .append(num(cpu / 1e6 * perMinute, 2)).append(" | ").append(num(wakeUps * perMinute, 0)).append(" |\n");
        });
    }

    /** One app's figures over the span, in ms per minute; threads = how many profiler threads were live. */
    private record Idle(String label, double processMs, double profilerMs, long profilerThreads, double lookbackMs,
            double jfrMs, long rss, Map<String, Double> groupsMs) {

        static Idle of(String label, Snap a, Snap b, long rss, double perMinute) {
            Map<String, Double> groups = new java.util.TreeMap<>();
            for (String g : List.of("profiler", "JFR", "JIT", "GC", "VM", "other")) {
                groups.put(g, (b.groups().getOrDefault(g, 0L) - a.groups().getOrDefault(g, 0L)) / 1e6 * perMinute);
            }
            return new Idle(label, (b.cpu() - a.cpu()) / 1e6 * perMinute,
                    (b.profiler()[0] - a.profiler()[0]) / 1e6 * perMinute, b.profiler()[1],
                    (b.lookback()[0] - a.lookback()[0]) / 1e6 * perMinute, (b.jfr()[0] - a.jfr()[0]) / 1e6 * perMinute,
                    rss, groups);
        }
    }

    static void run(Ctx ctx) throws Exception {
        Settings s = ctx.settings;
        String load = Proc.loadAverage();
        try (App none = App.start(ctx, "idle-none", false, false, List.of(), List.of("profiler.enabled=false"));
                App monitor = App.start(ctx, "idle-monitor", false, false, List.of(), List.of("profiler.enabled=true"));
                App lookback = App.start(ctx, "idle-lookback-off", false, false, List.of(),
                        List.of("profiler.enabled=true", LOOKBACK_OFF))) {
            Thread.sleep((long) (s.idleSettle() * 1000)); // start-up work (JIT, class loading) dies down
            long[] m0 = Proc.machineJiffies();
            long w0 = System.nanoTime();
            Snap n0 = Snap.of(none);
            Snap p0 = Snap.of(monitor);
            Snap l0 = Snap.of(lookback);
            Thread.sleep((long) (s.idleMeasure() * 1000));
            Snap n1 = Snap.of(none);
            Snap p1 = Snap.of(monitor);
            Snap l1 = Snap.of(lookback);
            long wall = System.nanoTime() - w0;
            double others = Proc.externalPercent(m0, Proc.machineJiffies(),
                    (n1.cpu() - n0.cpu()) + (p1.cpu() - p0.cpu()) + (l1.cpu() - l0.cpu()), wall, ctx.cpus);
            double perMinute = 60e9 / wall;
            Idle idleNone = Idle.of("no profiler", n0, n1, Proc.rssBytes(none.pid()), perMinute);
            Idle idleMon = Idle.of("starter, every default (look-back on, idle)", p0, p1,
                    Proc.rssBytes(monitor.pid()), perMinute);
            Idle idleLb = Idle.of("starter, look-back off (`" + LOOKBACK_OFF + "`)", l0, l1,
                    Proc.rssBytes(lookback.pid()), perMinute);
            LookbackProbe probe = LookbackProbe.of(monitor);

            StringBuilder md = new StringBuilder("## Idle CPU cost of monitoring\n\n");
            md.append(Proc.fmt("Three idle apps side by side (no requests), %.0f s after start-up, measured over the same "
                            + "%.0f s; load average before: %s; others' CPU during it: %.0f%% of the machine. "
                            + "Profiler threads: `cpuprofiler-*` (the sampler, whose tick also checks the policy and "
                            + "arms the look-back; while look-back records, `cpuprofiler-lookback-stream`); JFR threads: "
                            + "the JVM's own `JFR *` (thread sampler, recorder, periodic tasks), which look-back's "
                            + "sampling runs on. "
                            + "RSS: `VmRSS` of `/proc/<pid>/status` at the end; it includes however much of the "
                            + "512 MB heap each JVM has touched so far, which differs by tens of MB between otherwise "
                            + "identical JVMs.%n%n",
                    s.idleSettle(), s.idleMeasure(), load, others));
            md.append("| app | CPU ms per minute (whole process, /proc/<pid>/stat) | profiler threads, ms per minute "
                    + "(schedstat) | JFR threads, ms per minute | RSS MB | % of one core (whole process / profiler "
                    + "threads) |\n|---|---|---|---|---|---|\n");
            for (Idle i : List.of(idleNone, idleMon, idleLb)) {
                boolean profiler = i != idleNone;
                md.append("| ").append(i.label())
                        .append(" | ").append(num(i.processMs(), 1))
                        .append(" | ").append(profiler ? num(i.profilerMs(), 2) + " (" + i.profilerThreads()
                                + " threads" + (i == idleMon ? "; look-back's: " + num(i.lookbackMs(), 2) : "") + ")"
                                : "–")
                        .append(" | ").append(num(i.jfrMs(), 2))
                        .append(" | ").append(i.rss() < 0 ? "–" : num(i.rss() / 1048576.0, 0))
                        .append(" | ").append(num(i.processMs() / 600, 4)).append(" / ")
                        .append(profiler ? num(i.profilerMs() / 600, 5) : "–")
                        .append(" |\n");
            }
            md.append(Proc.fmt("%nWhole-process difference, every default − no profiler: %s ms per minute (%s%% of one "
                    + "core); its resolution is 10 ms ticks and each JVM's own background work (GC, JIT, Tomcat) varies "
                    + "by more than that, so the profiler threads' own CPU time is the precise figure.%n",
                    num(idleMon.processMs() - idleNone.processMs(), 1),
                    num((idleMon.processMs() - idleNone.processMs()) / 600, 4)));
            // Look-back's idle cost: its own threads and JFR's in the default app, and the default app against the
            // one with look-back off.
            double lookbackOwn = idleMon.lookbackMs() + idleMon.jfrMs();
            double lookbackWhole = idleMon.processMs() - idleLb.processMs();
            double rssDelta = idleLb.rss() < 0 || idleMon.rss() < 0 ? Double.NaN
                    : (idleMon.rss() - idleLb.rss()) / 1048576.0;
            if (probe.present()) {
                md.append(Proc.fmt("%n**Look-back, on by default and idle**: its threads and JFR's used %s ms per "
                                + "minute (%s%% of one core); profiler threads, every default − look-back off: %s ms "
                                + "per minute; whole process: %s ms per minute; resident set %s MB. Its status at the "
                                + "end: %s.%s%n",
                        num(lookbackOwn, 2), num(lookbackOwn / 600, 4),
                        num(idleMon.profilerMs() - idleLb.profilerMs(), 2), num(lookbackWhole, 1), signed(rssDelta),
                        probe.text(), probe.recording() ? " **It was recording**: something armed it (CPU above "
                                + "the arming level), so this is not the idle figure." : ""));
            } else {
                md.append(Proc.fmt("%n**Look-back**: %s (the default app's status has no `lookback` field).%n",
                        probe.text()));
            }
            md.append("\nEach profiler and JFR thread (schedstat; wake-ups = voluntary context switches), per minute:\n\n"
                    + "| app | thread | ms CPU | wake-ups |\n|---|---|---|---|\n");
            perThread(md, "every default", p0, p1, perMinute);
            perThread(md, "look-back off", l0, l1, perMinute);
            md.append("\nWhere the idle CPU went, by thread group (live threads' schedstat, ms per minute):\n\n"
                    + "| app | profiler | JFR | JIT compiler | GC | VM | other (Tomcat, app, ...) |\n"
                    + "|---|---|---|---|---|---|---|\n");
            for (Idle i : List.of(idleNone, idleMon, idleLb)) {
                md.append("| ").append(i.label());
                for (String g : List.of("profiler", "JFR", "JIT", "GC", "VM", "other")) {
                    md.append(" | ").append(num(i.groupsMs().get(g), 2));
                }
                md.append(" |\n");
            }
            md.append("\nA JVM's first minutes include JIT compilation of whatever code runs; code that runs once a "
                    + "second (the sampler) or once every 5 s (the policy) stays interpreted for minutes, so the "
                    + "profiler threads cost more early on than the compiled figures of the JMH section.\n");
            Map<String, Double> tick = ctx.sharedTickMicros;
            if (!tick.isEmpty()) {
                md.append("Cross-check from JMH: one sampler tick costs ");
                tick.forEach((k, v) -> md.append(num(v, 1)).append(" µs (").append(k).append(") "));
                md.append("= at one tick a second, ");
                tick.forEach((k, v) -> md.append(num(v * 60 / 1000, 3)).append(" ms per minute (").append(k).append(") "));
                md.append(".\n");
            }
            if (!Double.isNaN(ctx.sharedTrackingMicros)) {
                md.append(Proc.fmt("Per-thread CPU tracking, which runs on the same tick, costs %s µs per tick with 500 "
                        + "threads (JMH) = %s ms per minute; the idle app has far fewer threads.%n",
                        num(ctx.sharedTrackingMicros, 1), num(ctx.sharedTrackingMicros * 60 / 1000, 2)));
            }
            ctx.report.section(md.toString());
            double pct = idleMon.profilerMs() / 600;
            ctx.report.goal("Monitoring cost (idle app)", "≤ 0.1% of one core (≤ 60 ms CPU per minute)",
                    Proc.fmt("profiler threads %s ms/min = %s%% of one core; whole-process difference %s ms/min",
                            num(idleMon.profilerMs(), 2), num(pct, 4),
                            num(idleMon.processMs() - idleNone.processMs(), 1)),
                    idleMon.profilerThreads() == 0 ? Report.Verdict.NOT_MEASURED
                            : pct <= 0.1 ? Report.Verdict.MET : Report.Verdict.MISSED,
                    idleMon.profilerThreads() == 0 ? "no cpuprofiler-* threads found in the monitoring app"
                            : "measured on the profiler's own threads; the whole-process difference is within the noise of two idle JVMs");
            double withJfr = idleMon.profilerMs() + idleMon.jfrMs();
            ctx.report.goal("Idle cost, every default (issue 15)", "profiler + JFR threads ≤ 12 ms CPU per minute, "
                            + "no JFR thread",
                    Proc.fmt("profiler %s + JFR %s = %s ms/min; JFR threads: %d", num(idleMon.profilerMs(), 2),
                            num(idleMon.jfrMs(), 2), num(withJfr, 2), p1.jfr()[1]),
                    idleMon.profilerThreads() == 0 ? Report.Verdict.NOT_MEASURED
                            : withJfr <= 12 && p1.jfr()[1] == 0 ? Report.Verdict.MET : Report.Verdict.MISSED,
                    "the app runs every default: look-back on, and idle (" + probe.text() + ")");
            ctx.report.goal("Idle cost, every default (issue 35)", "≤ 3 ms CPU per minute averaged over an hour",
                    Proc.fmt("profiler + JFR %s ms/min over %.0f s, %.0f s after start-up (wake-ups: %s a minute)",
                            num(withJfr, 2), s.idleMeasure(), s.idleSettle(),
                            num(wakeUps(p0, p1) * perMinute, 0)),
                    Report.Verdict.INFO, "the hour is `benchmarks/idle-hour.sh` (62 minutes, not in this harness); "
                            + "these seconds right after start-up run the profiler's code interpreted and inside "
                            + "its start-up grace, so they cost more than the hour's average");
            ctx.report.goal("Look-back cost (idle app)", "none in the issue (issue 7's always-on look-back: ~0.27% of "
                            + "one core idle)",
                    probe.present()
                            ? Proc.fmt("look-back's and JFR's threads %s ms/min; profiler threads vs look-back off %s "
                                    + "ms/min; whole process %s ms/min; RSS %s MB", num(lookbackOwn, 2),
                                    num(idleMon.profilerMs() - idleLb.profilerMs(), 2), num(lookbackWhole, 1),
                                    signed(rssDelta))
                            : LookbackProbe.NOT_PRESENT,
                    probe.present() ? Report.Verdict.INFO : Report.Verdict.NOT_MEASURED,
                    !probe.present() ? "the default app's status has no `lookback` field"
                            : probe.recording() ? "look-back was recording (" + probe.text() + "): not the idle figure"
                            : "every default against look-back off: armed by CPU only, an idle look-back costs "
                                    + "nothing measurable");
        }
    }

    /** Wake-ups of the profiler's and JFR's threads between two readings. */
    private static long wakeUps(Snap a, Snap b) {
        long n = 0;
        for (var e : b.tasks().entrySet()) {
            Proc.TaskCpu before = a.tasks().get(e.getKey());
            n += e.getValue().wakeUps() - (before == null ? 0 : before.wakeUps());
        }
        return n;
    }

    private static String signed(double v) {
        return Double.isNaN(v) ? "–" : (v >= 0 ? "+" : "") + num(v, 0);
    }
}
