package dev.cpuprofiler.benchmarks.harness;

import dev.cpuprofiler.CpuProfiler;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import dev.cpuprofiler.benchmarks.child.FidelityChild;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * CPU% fidelity: the product's figure against the kernel's accounting, for steady, bursty and multi-threaded load,
 * without a quota and inside a real 1.5-CPU quota cgroup; alongside, the MXBean's and Micrometer's figures.
 */
final class FidelitySection {

    private static final double QUOTA = 1.5;

    private FidelitySection() {
    }

    static void run(Ctx ctx) throws Exception {
        Settings s = ctx.settings;
        String phases = Proc.fmt("steady:%.0f,bursty:%.0f,multi:%.0f", s.fidelityPhase(), s.fidelityPhase(),
                s.fidelityPhase());
        StringBuilder md = new StringBuilder("## CPU% fidelity\n\n");
        md.append(Proc.fmt("One JVM per condition runs three load phases of %.0f s (the first %.0f s of each left out): "
                        + "**steady** (one busy thread), **bursty** (all CPUs busy 0.69 s of every 2.3 s: 30%% duty, "
                        + "not aligned with the 1 s sampler), **multi** (8 threads, each busy 4 ms of every 20 ms). In "
                        + "the same process: the product's per-second figure (the `CpuProfiler` facade as the starter "
                        + "builds it: source `auto`, a listener on its sampler thread), and at that same moment the "
                        + "kernel's `/proc/self/stat` utime+stime (10 ms resolution: ±0.5 point per 1 s sample on 2 "
                        + "CPUs) and, in the cgroup, its usage counter (ns). Kernel %% = Δcpu / (Δwall × CPUs the "
                        + "process may use: %d, or the quota %.1f). `getProcessCpuLoad()` is read each second at +1/3 s "
                        + "and Micrometer's `process.cpu.usage` at +2/3 s: they share one JVM measuring window, so each "
                        + "covers only the time since the other's read (what happens in an app that uses both). Mean "
                        + "= average of the readings over the phase, vs the kernel's figure over the same span; MAE = "
                        + "mean absolute per-reading error vs the kernel over that reading's own second.%n%n",
                s.fidelityPhase(), s.fidelitySkip(), ctx.cpus, QUOTA));
        md.append("| condition | load | product source (CPUs) | kernel % | product % | error (points) | product per-second"
                + " MAE | getProcessCpuLoad % (error; MAE) | Micrometer process.cpu.usage % (error; MAE) |\n"
                + "|---|---|---|---|---|---|---|---|---|\n");
        double worst = Double.NaN;
        String worstWhere = "";
        List<String> conditions = new ArrayList<>();

        for (boolean quota : new boolean[] {false, true}) {
            String condition = quota ? "quota 1.5 CPUs" : "no quota";
            QuotaCgroup cg = null;
            if (quota) {
                try {
                    cg = QuotaCgroup.create("cpuprofiler-bench-" + ProcessHandle.current().pid(), QUOTA);
                } catch (IOException e) {
                    ctx.report.problem("fidelity with a CPU quota skipped: " + e.getMessage());
                    continue;
                }
            }
            try {
                String load = Proc.loadAverage();
                String name = quota ? "fidelity-quota" : "fidelity-noquota";
                double truthCpus = quota ? QUOTA : ctx.cpus;
                List<String> cmd = ctx.jvms.command(false, false, List.of("-Xmx256m"), FidelityChild.class.getName(),
                        List.of(phases, Double.toString(truthCpus), cg == null ? "-" : cg.usageFile().toString(),
                                ctx.work.resolve(name + ".tsv").toString(), Double.toString(s.fidelitySkip())));
                if (cg != null) {
                    cmd = cg.wrap(cmd);
                }
                List<String> results;
                try (Child child = Child.start(name, cmd, ctx.work.resolve(name + ".log"))) {
                    int rc = child.await(3 * (s.fidelityPhase() + 2) + 90);
                    results = child.linesStartingWith("RESULT ");
                    if (rc != 0 || results.isEmpty()) {
                        ctx.report.problem("fidelity (" + condition + ") failed, exit " + rc + ":\n" + child.tail(15));
                        continue;
                    }
                }
                conditions.add(condition + (cg != null ? " (" + cg.description + ")" : "") + ", load average before: "
                        + load);
                for (String line : results) {
                    JsonNode r = Http.JSON.readTree(line);
                    JsonNode p = r.path("product");
                    double truth = p.path("truth").asDouble(Double.NaN);
                    double mean = p.path("mean").asDouble(Double.NaN);
                    double err = mean - truth;
                    if (Double.isNaN(worst) || Math.abs(err) > worst) {
                        worst = Math.abs(err);
                        worstWhere = condition + ", " + r.path("phase").asString("");
                    }
                    md.append("| ").append(condition).append(" | ").append(r.path("phase").asString(""))
                            .append(" | ").append(r.path("source").asString("")).append(" (")
                            .append(num(r.path("productCpus").asDouble(Double.NaN), 1)).append(")")
                            .append(" | ").append(num(truth, 2))
                            .append(p.has("truthCgroup") ? " (cgroup " + num(p.path("truthCgroup").asDouble(Double.NaN), 2) + ")" : "")
                            .append(" | ").append(num(mean, 2))
                            .append(" | ").append(signed(err))
                            .append(" | ").append(num(p.path("mae").asDouble(Double.NaN), 2))
                            .append(p.has("maeCgroup") ? " (vs cgroup " + num(p.path("maeCgroup").asDouble(Double.NaN), 2) + ")" : "")
                            .append(" | ").append(other(r.path("mxbean")))
                            .append(" | ").append(other(r.path("micrometer"))).append(" |\n");
                }
            } finally {
                if (cg != null) {
                    cg.close();
                }
            }
        }
        md.append('\n');
        for (String c : conditions) {
            md.append("- ").append(c).append('\n');
        }
        ctx.report.section(md.toString());
        if (Double.isNaN(worst)) {
            ctx.report.goal("CPU% error", "≤ 1 point", "not measured", Report.Verdict.NOT_MEASURED, "see skipped/failed");
        } else {
            ctx.report.goal("CPU% error", "≤ 1 point", Proc.fmt("largest |product − kernel| over a phase: %s points (%s)",
                    num(worst, 2), worstWhere), worst <= 1 ? Report.Verdict.MET : Report.Verdict.MISSED,
                    worst <= 1 ? "phase averages; per-second readings add the kernel counter's own 10 ms quantization (see MAE)"
                            : "see the fidelity table");
        }
    }

    private static String other(JsonNode n) {
        if (n.isNull() || n.isMissingNode()) {
            return "–";
        }
        double mean = n.path("mean").asDouble(Double.NaN);
        double truth = n.path("truth").asDouble(Double.NaN);
        return num(mean, 2) + " (" + signed(mean - truth) + "; " + num(n.path("mae").asDouble(Double.NaN), 2) + ")";
    }

    private static String signed(double v) {
        return Double.isNaN(v) ? "–" : (v >= 0 ? "+" : "") + num(v, 2);
    }
}
