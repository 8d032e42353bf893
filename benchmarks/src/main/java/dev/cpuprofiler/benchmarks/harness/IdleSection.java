package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import java.util.List;
import java.util.Map;

/**
 * The idle app's CPU time per minute without the profiler and with it monitoring (defaults: sampler every 1 s,
 * policy every 5 s, trigger on), both running side by side over the same minute: the whole process from
 * {@code /proc/<pid>/stat} (utime + stime, 10 ms resolution) and the profiler's own threads ({@code cpuprofiler-*},
 * from each thread's {@code schedstat}, ns resolution).
 */
final class IdleSection {

    private IdleSection() {
    }

    static void run(Ctx ctx) throws Exception {
        Settings s = ctx.settings;
        String load = Proc.loadAverage();
        try (App none = App.start(ctx, "idle-none", false, false, List.of(), List.of("profiler.enabled=false"));
                App monitor = App.start(ctx, "idle-monitor", false, false, List.of(), List.of("profiler.enabled=true"))) {
            Thread.sleep((long) (s.idleSettle() * 1000)); // start-up work (JIT, class loading) dies down
            long[] m0 = Proc.machineJiffies();
            long n0 = Proc.cpuNanos(none.pid());
            long p0 = Proc.cpuNanos(monitor.pid());
            long[] t0 = Proc.threadsCpuNanos(monitor.pid(), "cpuprofiler-");
            Map<String, Long> g0None = Proc.cpuByThreadGroup(none.pid());
            Map<String, Long> g0Mon = Proc.cpuByThreadGroup(monitor.pid());
            long w0 = System.nanoTime();
            Thread.sleep((long) (s.idleMeasure() * 1000));
            long wall = System.nanoTime() - w0;
            long n1 = Proc.cpuNanos(none.pid());
            long p1 = Proc.cpuNanos(monitor.pid());
            long[] t1 = Proc.threadsCpuNanos(monitor.pid(), "cpuprofiler-");
            Map<String, Long> g1None = Proc.cpuByThreadGroup(none.pid());
            Map<String, Long> g1Mon = Proc.cpuByThreadGroup(monitor.pid());
            double others = Proc.externalPercent(m0, Proc.machineJiffies(), (n1 - n0) + (p1 - p0), wall, ctx.cpus);
            double perMinute = 60e9 / wall;
            double noneMs = (n1 - n0) / 1e6 * perMinute;
            double monitorMs = (p1 - p0) / 1e6 * perMinute;
            double threadsMs = (t1[0] - t0[0]) / 1e6 * perMinute;

            StringBuilder md = new StringBuilder("## Idle CPU cost of monitoring\n\n");
            md.append(Proc.fmt("Two idle apps side by side (no requests), %.0f s after start-up, measured over the same "
                            + "%.0f s; load average before: %s; others' CPU during it: %.0f%% of the machine.\n\n",
                    s.idleSettle(), s.idleMeasure(), load, others));
            md.append("| app | CPU ms per minute (whole process, /proc/<pid>/stat) | profiler threads, ms per minute "
                    + "(schedstat) | % of one core |\n|---|---|---|---|\n");
            md.append(Proc.fmt("| no profiler | %s | – | %s |%n", num(noneMs, 1), num(noneMs / 600, 4)));
            md.append(Proc.fmt("| starter, monitoring (defaults) | %s | %s (%d threads: sampler, policy) | %s (threads: %s) |%n",
                    num(monitorMs, 1), num(threadsMs, 2), t1[1], num(monitorMs / 600, 4), num(threadsMs / 600, 5)));
            md.append(Proc.fmt("%nWhole-process difference: %s ms per minute (%s%% of one core); its resolution is 10 ms "
                    + "ticks and both JVMs' own background work (GC, JIT, Tomcat) varies by more than that, so the "
                    + "profiler threads' own CPU time is the precise figure.%n", num(monitorMs - noneMs, 1),
                    num((monitorMs - noneMs) / 600, 4)));
            md.append("\nWhere the idle CPU went, by thread group (live threads' schedstat, ms per minute):\n\n"
                    + "| app | profiler | JIT compiler | GC | VM | other (Tomcat, app, ...) |\n|---|---|---|---|---|---|\n");
            for (int i = 0; i < 2; i++) {
                Map<String, Long> a = i == 0 ? g0None : g0Mon;
                Map<String, Long> b = i == 0 ? g1None : g1Mon;
                md.append(i == 0 ? "| no profiler" : "| starter, monitoring");
                for (String g : List.of("profiler", "JIT", "GC", "VM", "other")) {
                    long d = b.getOrDefault(g, 0L) - a.getOrDefault(g, 0L);
                    md.append(" | ").append(num(d / 1e6 * perMinute, 2));
                }
                md.append(" |\n");
            }
            md.append("\nA JVM's first minutes include JIT compilation of whatever code runs; code that runs once a "
                    + "second (the sampler) or once every 5 s (the policy) stays interpreted for minutes, so the "
                    + "profiler threads cost more early on than the compiled figure from JMH below.\n");
            Map<String, Double> tick = ctx.sharedTickMicros;
            if (!tick.isEmpty()) {
                md.append("Cross-check from JMH: one sampler tick costs ");
                tick.forEach((k, v) -> md.append(num(v, 1)).append(" µs (").append(k).append(") "));
                md.append("= at one tick a second, ");
                tick.forEach((k, v) -> md.append(num(v * 60 / 1000, 3)).append(" ms per minute (").append(k).append(") "));
                md.append(".\n");
            }
            ctx.report.section(md.toString());
            double pct = threadsMs / 600;
            ctx.report.goal("Monitoring cost (idle app)", "≤ 0.1% of one core (≤ 60 ms CPU per minute)",
                    Proc.fmt("profiler threads %s ms/min = %s%% of one core; whole-process difference %s ms/min",
                            num(threadsMs, 2), num(pct, 4), num(monitorMs - noneMs, 1)),
                    t1[1] == 0 ? Report.Verdict.NOT_MEASURED : pct <= 0.1 ? Report.Verdict.MET : Report.Verdict.MISSED,
                    t1[1] == 0 ? "no cpuprofiler-* threads found in the monitoring app"
                            : "measured on the profiler's own threads; the whole-process difference is within the noise of two idle JVMs");
        }
    }
}
