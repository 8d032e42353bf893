package dev.cpuprofiler.benchmarks.harness;

import static dev.cpuprofiler.benchmarks.harness.Report.num;

import dev.cpuprofiler.benchmarks.RenderBenchmark;
import dev.cpuprofiler.benchmarks.ThreadTrackingBenchmark;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.format.ProfileFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * JMH: sampler tick and a bare counter read per source, per-thread CPU tracking over 500 threads, merge rate, each
 * rendering of a 100 000-node tree. JMH's {@code gc} profiler gives every row its bytes allocated per operation: the
 * counter read must allocate nothing and the JSON rendering only its buffers (these bounds were unit-test assertions,
 * which a loaded build machine made flaky; they are judged here).
 */
final class JmhSection {

    private JmhSection() {
    }

    static void run(Ctx ctx) throws Exception {
        Settings s = ctx.settings;
        Path json = ctx.work.resolve("jmh.json");
        List<String> args = List.of("dev\\.cpuprofiler\\.benchmarks\\.(SamplerTickBenchmark|CpuSourceReadBenchmark|ThreadTrackingBenchmark|StackTreeMergeBenchmark|RenderBenchmark|RequestAttributionBenchmark)\\.",
                "-prof", "gc", "-f", "1", "-wi", Integer.toString(s.jmhWarmups()), "-w", s.jmhSeconds() + "s", "-i",
                Integer.toString(s.jmhIterations()), "-r", s.jmhSeconds() + "s", "-rf", "json", "-rff", json.toString(),
                "-jvmArgs", "-Xms1g -Xmx1g");
        List<String> cmd = new ArrayList<>(List.of(ctx.jvms.java, "-cp", ctx.jvms.classpath, "org.openjdk.jmh.Main"));
        cmd.addAll(args);
        String load = Proc.loadAverage();
        long t0 = System.nanoTime();
        int rc;
        try (Child jmh = Child.start("jmh", cmd, ctx.work.resolve("jmh.log"))) {
            rc = jmh.await(Math.max(60, ctx.remainingSeconds() - 60));
            if (rc != 0 || !Files.exists(json)) {
                ctx.report.problem("JMH failed (exit " + rc + "), see " + jmh.log + ":\n" + jmh.tail(15));
                return;
            }
        }
        double minutes = (System.nanoTime() - t0) / 60e9;
        JsonNode results = Http.JSON.readTree(Files.readString(json));

        StringBuilder md = new StringBuilder("## Micro-benchmarks (JMH)\n\n");
        md.append(Proc.fmt("JMH 1.37, 1 fork, %d×%ds warm-up, %d×%ds measurement; %.1f min; load average before: %s. "
                        + "Error is JMH's 99.9%% half-interval.\n\n", s.jmhWarmups(), s.jmhSeconds(),
                s.jmhIterations(), s.jmhSeconds(), minutes, load));
        md.append("| benchmark | parameters | score | error | unit | allocated | meaning |\n|---|---|---|---|---|---|---|\n");
        double worstMerge = Double.NaN;
        String worstMergeParams = "";
        Map<String, Double> tick = new LinkedHashMap<>();
        Map<String, double[]> sourceReads = new LinkedHashMap<>();  // source -> {ns per read, B per read}
        double jsonBytesPerNode = Double.NaN;
        Map<String, Long> sizes = renderSizes();
        double copyOnly = Double.NaN;
        for (JsonNode r : results) {
            if (r.path("benchmark").asString("").endsWith("copyOnly")) {
                copyOnly = r.path("primaryMetric").path("score").asDouble(Double.NaN);
            }
        }
        for (JsonNode r : results) {
            String bench = r.path("benchmark").asString("");
            String shortName = bench.substring(bench.lastIndexOf('.', bench.lastIndexOf('.') - 1) + 1);
            StringBuilder params = new StringBuilder();
            for (Map.Entry<String, JsonNode> p : r.path("params").properties()) {
                params.append(params.length() == 0 ? "" : ", ").append(p.getKey()).append('=')
                        .append(p.getValue().asString(""));
            }
            JsonNode m = r.path("primaryMetric");
            double score = m.path("score").asDouble(Double.NaN);
            double error = m.path("scoreError").asDouble(Double.NaN);
            String unit = m.path("scoreUnit").asString("");
            // JMH's gc profiler: bytes allocated per operation, normalised (NaN when the profiler did not run).
            double allocated = r.path("secondaryMetrics").path("gc.alloc.rate.norm").path("score")
                    .asDouble(Double.NaN);
            String meaning;
            String shownScore;
            String shownError;
            String shownUnit = unit;
            if (bench.endsWith("StackTreeMergeBenchmark.merge")) {
                shownScore = num(score / 1e6, 2);
                shownError = num(error / 1e6, 2);
                shownUnit = "M frames/s";
                double mergeOnly = score;
                if ("fresh".equals(r.path("params").path("names").asString(""))) {
                    // score includes rebuilding the frames; take the copy's own time out: 1/merge = 1/score − 1/copy
                    mergeOnly = 1 / (1 / score - 1 / copyOnly);
                    meaning = "incl. making fresh names; StackTree.accept alone: " + num(mergeOnly / 1e6, 2)
                            + " M frames/s (" + num(mergeOnly / 1e6 / 50.0, 2) + " M samples/s)";
                } else {
                    meaning = "StackTree.accept: " + num(score / 1e6 / 50.0, 2) + " M samples/s at ~50 frames/sample";
                }
                if (!Double.isNaN(mergeOnly) && mergeOnly > 0 && (Double.isNaN(worstMerge) || mergeOnly < worstMerge)) {
                    worstMerge = mergeOnly;
                    worstMergeParams = params.toString();
                }
            } else if (bench.endsWith("copyOnly")) {
                shownScore = num(score / 1e6, 2);
                shownError = num(error / 1e6, 2);
                shownUnit = "M frames/s";
                meaning = "baseline: rebuilding frames with new name Strings, no merge";
            } else if (bench.endsWith("ThreadTrackingBenchmark.tick")) {
                shownScore = num(score, 1);
                shownError = num(error, 1);
                JsonNode aux = r.path("secondaryMetrics");
                double reads = aux.path("reads").path("score").asDouble(Double.NaN)
                        / aux.path("ticks").path("score").asDouble(Double.NaN);
                String backOff = r.path("params").path("backOff").asString("");
                if ("product".equals(backOff)) {
                    ctx.sharedTrackingMicros = score;
                }
                meaning = Proc.fmt("%s thread reads per tick; at one tick a second (the default sampler interval) "
                        + "%s%% of one core", num(reads, 1), num(score / 1e6 * 100, 4));
            } else if (bench.endsWith("RequestAttributionBenchmark.idle")) {
                shownScore = num(score, 1);
                shownError = num(error, 1);
                meaning = "CPU by endpoint: one request's observation callbacks while no profile records, its "
                        + "duration not counted (the path without the latency count)";
            } else if (bench.endsWith("RequestAttributionBenchmark.idleCountingLatency")) {
                shownScore = num(score, 1);
                shownError = num(error, 1);
                meaning = "the default install's idle path: the same callbacks, and the request's duration counted by "
                        + "endpoint for the latency trigger (goal: at most 200 ns, and only the boxed start time "
                        + "allocated)";
            } else if (bench.endsWith("RequestAttributionBenchmark.recording")) {
                shownScore = num(score, 1);
                shownError = num(error, 1);
                meaning = "CPU by endpoint: one request's callbacks while a profile records, two scope events and its "
                        + "end (goal: at most 300 ns per scope event); the bytes include the request's own Micrometer "
                        + "context, which the benchmark makes";
            } else if (bench.endsWith("CpuSourceReadBenchmark.read")) {
                shownScore = num(score, 0);
                shownError = num(error, 0);
                String source = r.path("params").path("source").asString("");
                sourceReads.put(source, new double[] {score, allocated});
                meaning = "one `cpuTimeNanos()` of the source, the part of a tick that reads the kernel";
            } else if (bench.endsWith("SamplerTickBenchmark.tick")) {
                shownScore = num(score, 2);
                shownError = num(error, 2);
                String source = r.path("params").path("source").asString("");
                tick.put(source, score);
                meaning = "one tick a second costs " + num(score / 1e6 * 100, 5) + "% of one core";
            } else {
                shownScore = num(score, 1);
                shownError = num(error, 1);
                String format = r.path("params").path("format").asString("");
                Long bytes = sizes.get(format);
                meaning = bytes == null ? "" : Proc.fmt("output %.2f MB", bytes / 1e6);
                if ("json".equals(format) && renderNodes > 0 && !Double.isNaN(allocated)) {
                    jsonBytesPerNode = allocated / renderNodes;
                    meaning += Proc.fmt("; %s B allocated per node", num(jsonBytesPerNode, 2));
                }
            }
            md.append("| ").append(shortName).append(" | ").append(params).append(" | ").append(shownScore)
                    .append(" | ± ").append(shownError).append(" | ").append(shownUnit).append(" | ")
                    .append(Double.isNaN(allocated) ? "–" : num(allocated, allocated < 10 ? 3 : 0) + " B/op")
                    .append(" | ").append(meaning)
                    .append(" |\n");
        }
        md.append('\n').append(Proc.fmt("Render benchmarks: a tree of %d nodes (realistic stacks grouped by 40 "
                + "threads), rendered in full into a counting sink.\n", renderNodes));
        md.append(Proc.fmt("Thread tracking: one `ThreadCpuTracker` tick (list the threads, read the due ones' CPU "
                + "time in one bulk call, names of new busy ones, the saturation trigger's pass over the active ones) "
                + "with the real `ManagementThreadCpuReader`, in a JVM running `threads` threads of its own (%d busy "
                + "at nice 19, the rest parked) besides JMH's; the tracker's clock advances 1 s per tick as in the "
                + "product. `backOff=product`: idle threads are read at 1, 2, 4, … up to every 32nd tick (the "
                + "defaults); `off`: every thread every tick.%n", ThreadTrackingBenchmark.BUSY));
        md.append("Merge: `tree=session` builds a new tree per 300 000-frame batch (a 30 s session of two busy threads "
                + "at 10 ms), `steady` merges into a tree that already holds every stack; `names=shared` reuses the "
                + "same Frame objects (hashes cached), `names=fresh` rebuilds each sample's frames with new name "
                + "Strings just before merging it, as the JFR engines do (`JfrStackConverter` concatenates class and "
                + "method per frame): its merge-only rate is derived by taking out the copy's own cost "
                + "(`FreshNamesCostBenchmark.copyOnly`). The goal is judged on the slowest merge-only rate.\n");
        md.append("Allocated: bytes per operation from JMH's `gc` profiler (`gc.alloc.rate.norm`); a few thousandths "
                + "of a byte per operation is JMH's own bookkeeping spread over millions of operations, i.e. nothing.\n");
        ctx.report.section(md.toString());

        if (!sourceReads.isEmpty()) {
            boolean fast = sourceReads.values().stream().allMatch(v -> v[0] < 50_000);
            boolean known = sourceReads.values().stream().noneMatch(v -> Double.isNaN(v[1]));
            // Any object per read would be 16 B or more; below 1 B is JMH's own per-iteration bookkeeping spread over
            // the iteration's reads (about 0.2 B at 2 µs a read and 1 s iterations).
            boolean free = known && sourceReads.values().stream().allMatch(v -> v[1] < 1);
            StringBuilder measured = new StringBuilder();
            for (Map.Entry<String, double[]> e : sourceReads.entrySet()) {
                measured.append(measured.length() == 0 ? "" : "; ").append(e.getKey()).append(' ')
                        .append(num(e.getValue()[0] / 1000, 2)).append(" µs, ")
                        .append(Double.isNaN(e.getValue()[1]) ? "?" : num(e.getValue()[1], 3)).append(" B");
            }
            ctx.report.goal("CPU source read", "< 50 µs and < 1 B allocated per read (no object)", measured.toString(),
                    !known ? Report.Verdict.NOT_MEASURED : fast && free ? Report.Verdict.MET : Report.Verdict.MISSED,
                    "one read a second, forever: it must not make garbage");
        }
        if (!Double.isNaN(jsonBytesPerNode)) {
            ctx.report.goal("JSON rendering allocation", "< 10 B per node (streams, no node objects)",
                    Proc.fmt("%s B per node (%d nodes)", num(jsonBytesPerNode, 2), renderNodes),
                    jsonBytesPerNode < 10 ? Report.Verdict.MET : Report.Verdict.MISSED,
                    "a node-per-object intermediate would take tens of bytes per node");
        }

        if (!Double.isNaN(worstMerge)) {
            ctx.report.goal("Merge rate", "≥ 5 M frames/s", Proc.fmt("%.1f M frames/s (slowest case: %s)",
                    worstMerge / 1e6, worstMergeParams), worstMerge >= 5e6 ? Report.Verdict.MET : Report.Verdict.MISSED,
                    worstMerge >= 5e6 ? "every merge case is above the goal"
                            : "fresh name Strings must be hashed and compared char by char on first sight; see the merge rows");
        }
        ctx.sharedTickMicros = tick;
    }

    private static int renderNodes;

    private static Map<String, Long> renderSizes() {
        Map<String, Long> out = new LinkedHashMap<>();
        try {
            StackTreeSnapshot tree = RenderBenchmark.tree(RenderBenchmark.TARGET_NODES);
            renderNodes = tree.size();
            Profile profile = RenderBenchmark.profile(tree);
            for (String format : List.of("json", "text", "collapsed", "html")) {
                out.put(format, RenderBenchmark.renderedBytes(profile, ProfileFormat.of(format).orElseThrow()));
            }
        } catch (Exception e) {
            System.out.println("[harness] cannot measure render sizes: " + e);
        }
        return out;
    }
}
