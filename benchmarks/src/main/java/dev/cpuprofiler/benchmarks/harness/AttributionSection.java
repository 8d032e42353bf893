package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import dev.cpuprofiler.benchmarks.child.AttributionChild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Attribution: a thread splitting its CPU 60/30/10 across three methods, profiled by each engine (through the
 * product's engine API, 10 ms) and by async-profiler's own agent; each method's share of the thread's samples
 * against its share of the thread's CPU time (thread CPU clock), in points.
 */
final class AttributionSection {

    private record Case(String id, String label, boolean jdk25, boolean agent) {
    }

    private record Outcome(Case c, int run, double hot, double warm, double cool, double truthHot, double truthWarm,
            double truthCool, long workerSamples, String detail, String java) {

        double maxError() {
            return Math.max(Math.abs(hot - truthHot), Math.max(Math.abs(warm - truthWarm), Math.abs(cool - truthCool)));
        }
    }

    private AttributionSection() {
    }

    static void run(Ctx ctx) throws Exception {
        Settings s = ctx.settings;
        List<Case> cases = new ArrayList<>();
        if (ctx.jvms.java25 != null) {
            cases.add(new Case("jfr-cpu-time", "jfr-cpu-time (JDK 25)", true, false));
        } else {
            ctx.report.problem("attribution of jfr-cpu-time skipped: " + ctx.jvms.java25Missing);
        }
        cases.add(new Case("async-profiler", "async-profiler engine", false, false));
        cases.add(new Case("jfr-execution", "jfr-execution", false, false));
        if (ctx.agentLibrary() != null) {
            cases.add(new Case("agent", "async-profiler's own agent (cpu, 10 ms)", false, true));
        } else {
            ctx.report.problem("attribution with async-profiler's agent skipped: " + ctx.agentMissing());
        }
        String load = Proc.loadAverage();
        List<Outcome> outcomes = new ArrayList<>();
        for (int run = 1; run <= s.attributionRuns(); run++) {
            for (Case c : cases) {
                System.out.printf("[attribution] run %d: %s%n", run, c.id());
                try {
                    Outcome o = runOne(ctx, c, run);
                    if (o != null) {
                        outcomes.add(o);
                    }
                } catch (Exception e) {
                    ctx.report.problem("attribution " + c.id() + " run " + run + " failed: " + e.getMessage());
                }
            }
        }
        StringBuilder md = new StringBuilder("## Attribution (60/30/10 split)\n\n");
        md.append(Proc.fmt("One thread spends its CPU time 60/30/10 in `hotSixty`/`warmThirty`/`coolTen` (the same "
                + "arithmetic kernel, ~100 ms rounds, truth from the thread's CPU clock around each call) next to 4 "
                + "parked threads. Engines record %.0f s at 10 ms through the product's `ProfilingEngine` API, each "
                + "in its own JVM; the agent is async-profiler's own `-agentpath:…=start,event=cpu,interval=10ms,"
                + "threads,collapsed` from JVM start to exit (its truth covers the same span, warm-up included). "
                + "Share = the worker thread's samples whose stack passes through the method. %d run(s); load "
                + "average before: %s.%n%n", s.attributionSeconds(), s.attributionRuns(), load));
        md.append("| profiler | run | JVM | detail | worker samples | hotSixty % (truth) | warmThirty % (truth) | "
                + "coolTen % (truth) | max error (points) |\n|---|---|---|---|---|---|---|---|---|\n");
        Map<String, Double> worstPerEngine = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            md.append("| ").append(o.c().label()).append(" | ").append(o.run()).append(" | ").append(o.java())
                    .append(" | ").append(o.detail()).append(" | ").append(o.workerSamples())
                    .append(" | ").append(num(o.hot(), 1)).append(" (").append(num(o.truthHot(), 1)).append(")")
                    .append(" | ").append(num(o.warm(), 1)).append(" (").append(num(o.truthWarm(), 1)).append(")")
                    .append(" | ").append(num(o.cool(), 1)).append(" (").append(num(o.truthCool(), 1)).append(")")
                    .append(" | ").append(num(o.maxError(), 2)).append(" |\n");
            worstPerEngine.merge(o.c().id(), o.maxError(), Math::max);
        }
        ctx.report.section(md.toString());
        if (worstPerEngine.isEmpty()) {
            ctx.report.goal("Attribution error", "≤ 3 points", "not measured", Report.Verdict.NOT_MEASURED, "");
            return;
        }
        StringBuilder measured = new StringBuilder();
        boolean productMet = true;
        for (Map.Entry<String, Double> e : worstPerEngine.entrySet()) {
            measured.append(measured.length() == 0 ? "" : "; ").append(e.getKey()).append(' ').append(num(e.getValue(), 2));
            if (!e.getKey().equals("agent")) {
                productMet &= e.getValue() <= 3;
            }
        }
        ctx.report.goal("Attribution error", "≤ 3 points per method", "largest per engine: " + measured,
                productMet ? Report.Verdict.MET : Report.Verdict.MISSED,
                productMet ? "every product engine within 3 points in every run" : "see the attribution table");
    }

    private static Outcome runOne(Ctx ctx, Case c, int run) throws Exception {
        Settings s = ctx.settings;
        String name = "attribution-r" + run + "-" + c.id();
        List<String> flags = new ArrayList<>(List.of("-Xmx256m"));
        List<String> args;
        Path collapsed = ctx.work.resolve(name + ".collapsed");
        if (c.agent()) {
            Files.deleteIfExists(collapsed);
            flags.add("-agentpath:" + ctx.agentLibrary() + "=start,event=cpu,interval=10ms,threads,collapsed,file="
                    + collapsed);
            args = List.of("agent", Double.toString(s.attributionSeconds()));
        } else {
            args = List.of("engine", c.id(), Double.toString(s.attributionSeconds()),
                    ctx.work.resolve(name + "-rec").toString());
        }
        List<String> cmd = ctx.jvms.command(c.jdk25(), c.id().equals("async-profiler"), flags,
                AttributionChild.class.getName(), args);
        try (Child child = Child.start(name, cmd, ctx.work.resolve(name + ".log"))) {
            int rc = child.await(s.attributionSeconds() + 90);
            List<String> results = child.linesStartingWith("RESULT ");
            if (rc != 0 || results.isEmpty()) {
                ctx.report.problem("attribution " + c.id() + " failed, exit " + rc + ":\n" + child.tail(15));
                return null;
            }
            JsonNode r = Http.JSON.readTree(results.get(0));
            double hot = r.path("hot").asDouble(Double.NaN);
            double warm = r.path("warm").asDouble(Double.NaN);
            double cool = r.path("cool").asDouble(Double.NaN);
            long worker = r.path("workerSamples").asLong(0);
            String detail = r.path("detail").asString("");
            if (c.agent()) {
                long[] counts = agentShares(collapsed);
                worker = counts[0];
                hot = 100.0 * counts[1] / counts[0];
                warm = 100.0 * counts[2] / counts[0];
                cool = 100.0 * counts[3] / counts[0];
                detail = "collapsed output";
            }
            return new Outcome(c, run, hot, warm, cool, r.path("truthHot").asDouble(Double.NaN),
                    r.path("truthWarm").asDouble(Double.NaN), r.path("truthCool").asDouble(Double.NaN), worker, detail,
                    r.path("java").asString("").replaceAll("\\+.*", ""));
        }
    }

    /** Worker samples, and those through hotSixty, warmThirty, coolTen, from async-profiler's collapsed output. */
    private static long[] agentShares(Path collapsed) throws Exception {
        long[] c = new long[4];
        for (String line : Files.readAllLines(collapsed)) {
            if (!line.startsWith("[split-worker")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            long n = Long.parseLong(line.substring(space + 1).trim());
            String stack = line.substring(0, space);
            c[0] += n;
            c[1] += stack.contains("SplitWorkload.hotSixty") ? n : 0;
            c[2] += stack.contains("SplitWorkload.warmThirty") ? n : 0;
            c[3] += stack.contains("SplitWorkload.coolTen") ? n : 0;
        }
        if (c[0] == 0) {
            throw new IllegalStateException("no split-worker samples in " + collapsed);
        }
        return c;
    }
}
