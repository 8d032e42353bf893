package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import dev.cpuprofiler.benchmarks.child.EndpointsChild;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * CPU by endpoint against the truth: the bench app's two endpoints (fixed CPU work each, kernels of their own) under
 * HTTP load, one on-demand profile per engine and thread model, each in its own JVM ({@link EndpointsChild}). Alpha's
 * share of the two endpoints' samples against its share of their CPU, measured on the request threads' clocks
 * (platform threads) or the profile's request counts × a platform-thread run's CPU per request (virtual threads);
 * and each kernel's samples under its own endpoint.
 */
final class EndpointsSection {

    private record Case(String engine, boolean jdk25, boolean virtual) {

        String label() {
            return engine + (jdk25 ? " (JDK 25" : " (JDK 17") + (virtual ? ", virtual threads)" : ")");
        }
    }

    private EndpointsSection() {
    }

    static void run(Ctx ctx) throws Exception {
        boolean quick = "quick".equals(ctx.settings.mode());
        double warmUp = quick ? 5 : 10;
        double seconds = quick ? 15 : 30;
        List<Case> cases = new ArrayList<>(List.of(new Case("async-profiler", false, false),
                new Case("jfr-execution", false, false)));
        if (ctx.jvms.java25 != null) {
            cases.add(new Case("jfr-cpu-time", true, false));
            cases.add(new Case("jfr-cpu-time", true, true));
            cases.add(new Case("jfr-execution", true, true));
        } else {
            ctx.report.problem("CPU by endpoint on JDK 25 (jfr-cpu-time, virtual threads) skipped: "
                    + ctx.jvms.java25Missing);
        }
        String load = Proc.loadAverage();
        Map<Case, JsonNode> results = new LinkedHashMap<>();
        String calibration = null;
        for (Case c : cases) {
            System.out.printf("[endpoints] %s%n", c.label());
            List<String> args = new ArrayList<>(List.of(c.engine(), Boolean.toString(c.virtual()),
                    Double.toString(warmUp), Double.toString(seconds)));
            if (c.virtual()) {
                if (calibration == null) {
                    ctx.report.problem("CPU by endpoint " + c.label() + ": no platform-thread run on JDK 25 to take "
                            + "each request's CPU from");
                    continue;
                }
                args.addAll(List.of(calibration.split(" ")));
            }
            String name = "endpoints-" + c.engine() + (c.jdk25() ? "-jdk25" : "-jdk17") + (c.virtual() ? "-vt" : "");
            List<String> cmd = ctx.jvms.command(c.jdk25(), c.engine().equals("async-profiler"), List.of("-Xmx512m"),
                    EndpointsChild.class.getName(), args);
            try (Child child = Child.start(name, cmd, ctx.work.resolve(name + ".log"))) {
                int rc = child.await((long) (warmUp + seconds + 120));
                List<String> lines = child.linesStartingWith("RESULT ");
                if (rc != 0 || lines.isEmpty()) {
                    ctx.report.problem("CPU by endpoint " + c.label() + " failed, exit " + rc + ":\n" + child.tail(15));
                    continue;
                }
                JsonNode r = Http.JSON.readTree(lines.get(0));
                results.put(c, r);
                if (c.jdk25() && !c.virtual()) {
                    calibration = r.path("alphaCpuMicros").asDouble() + " " + r.path("betaCpuMicros").asDouble();
                }
            }
        }
        StringBuilder md = new StringBuilder("## CPU by endpoint\n\n");
        md.append(Proc.fmt("The bench app's `GET /bench/endpoints/alpha/{n}` (40 kernel ops) and `GET "
                + "/bench/endpoints/beta` (100 ops), alternated by 3 HTTP clients in the same JVM; %.0f s of load, "
                + "then a %.0f s on-demand profile at 10 ms. Truth: alpha's share of the two endpoints' CPU, from "
                + "each request's CPU on its thread's clock around the whole filter chain (platform threads), or the "
                + "profile's request counts × the CPU per request the JDK 25 platform-thread run measured (virtual "
                + "threads have no CPU clock there). Profile: alpha's share of the two endpoints' samples. Own: a "
                + "kernel's samples under its own endpoint. Load average before: %s.%n%n", warmUp, seconds, load));
        md.append("| engine | samples (alpha + beta) | CPU per request alpha / beta (µs) | alpha % (truth) | error "
                + "(points) | alphaWork / betaWork under own endpoint % | [no request] % |\n"
                + "|---|---|---|---|---|---|---|\n");
        double worst = 0;
        double worstOwn = 100;
        String worstCase = "";
        for (Map.Entry<Case, JsonNode> e : results.entrySet()) {
            JsonNode r = e.getValue();
            double error = Math.abs(r.path("alphaPercent").asDouble() - r.path("truthAlphaPercent").asDouble());
            double own = Math.min(r.path("alphaOwnPercent").asDouble(), r.path("betaOwnPercent").asDouble());
            if (error > worst) {
                worst = error;
                worstCase = e.getKey().label();
            }
            worstOwn = Math.min(worstOwn, own);
            md.append("| ").append(e.getKey().label()).append(" | ").append(r.path("alphaSamples").asLong())
                    .append(" + ").append(r.path("betaSamples").asLong()).append(" | ")
                    .append(num(r.path("alphaCpuMicros").asDouble(), 0)).append(" / ")
                    .append(num(r.path("betaCpuMicros").asDouble(), 0)).append(" | ")
                    .append(num(r.path("alphaPercent").asDouble(), 1)).append(" (")
                    .append(num(r.path("truthAlphaPercent").asDouble(), 1)).append(") | ").append(num(error, 1))
                    .append(" | ").append(num(r.path("alphaOwnPercent").asDouble(), 1)).append(" / ")
                    .append(num(r.path("betaOwnPercent").asDouble(), 1)).append(" | ")
                    .append(num(r.path("noRequestPercent").asDouble(), 1)).append(" |\n");
        }
        ctx.report.section(md.toString());
        if (results.isEmpty()) {
            ctx.report.goal("CPU by endpoint", "shares within 3 points", "not measured", Report.Verdict.NOT_MEASURED,
                    "");
            return;
        }
        ctx.report.goal("CPU by endpoint: share", "within 3 points of the truth", "largest error " + num(worst, 1)
                + " points (" + worstCase + ")", worst <= 3 ? Report.Verdict.MET : Report.Verdict.MISSED,
                "jfr-execution samples no CPU spent in native code (socket reads and writes), which weighs more in "
                        + "the shorter request");
        ctx.report.goal("CPU by endpoint: own endpoint", "≥ 97% of each kernel's samples", "lowest " + num(worstOwn, 1)
                + "%", worstOwn >= 97 ? Report.Verdict.MET : Report.Verdict.MISSED, "");
    }
}
