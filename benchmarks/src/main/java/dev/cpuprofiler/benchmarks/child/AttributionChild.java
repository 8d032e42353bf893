package dev.cpuprofiler.benchmarks.child;

import dev.cpuprofiler.internal.engine.AsyncProfilerEngine;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.JfrCpuTimeEngine;
import dev.cpuprofiler.internal.engine.JfrExecutionEngine;
import dev.cpuprofiler.internal.engine.ProfilingEngine;
import dev.cpuprofiler.fixtures.SplitWorkload;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One attribution run in its own JVM: the 60/30/10 {@link SplitWorkload} profiled for a while, then one line
 * {@code RESULT {json}} on stdout with the truth (thread CPU clock) and what the profile says.
 *
 * <p>Usage: {@code AttributionChild engine <id> <seconds> <workDir>} records with one of the product's engines
 * (through its {@code ProfilingEngine} API, 10 ms, as a session does), counting the worker thread's samples whose
 * stack passes through each method. {@code AttributionChild agent <seconds>} is for a JVM started with
 * async-profiler's own agent ({@code -agentpath:...=start,...,threads,collapsed,file=...}): it counts the warm-up
 * too (the agent starts with the JVM), prints the truth and exits so the agent writes its file; the harness reads
 * the shares from that file.
 */
public final class AttributionChild {

    private AttributionChild() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("agent")) {
            double seconds = Double.parseDouble(args[1]);
            SplitWorkload workload = new SplitWorkload(true).start();
            Thread.sleep((long) (seconds * 1000));
            SplitWorkload.CpuSplit truth = workload.snapshot();
            workload.close();
            System.out.println("RESULT " + json("agent", "async-profiler agent", 0, 0, truth, Double.NaN, Double.NaN,
                    Double.NaN, 0, ""));
            System.out.flush();
            return; // exiting makes the agent write its file
        }
        String engineId = args[1];
        double seconds = Double.parseDouble(args[2]);
        Path workDir = Files.createDirectories(Path.of(args[3]));
        ProfilingEngine engine = switch (engineId) {
            case JfrCpuTimeEngine.ID -> new JfrCpuTimeEngine();
            case AsyncProfilerEngine.ID -> new AsyncProfilerEngine();
            case JfrExecutionEngine.ID -> new JfrExecutionEngine();
            default -> throw new IllegalArgumentException("unknown engine " + engineId);
        };
        SplitWorkload workload = new SplitWorkload(false).start();
        Counting sink = new Counting();
        EngineRecording recording = engine.start(EngineSettings.of(Duration.ofMillis(10), 256, workDir), sink);
        SplitWorkload.CpuSplit before = workload.snapshot();
        Thread.sleep((long) (seconds * 1000));
        SplitWorkload.CpuSplit truth = workload.snapshot().minus(before);
        EngineRecording.Result result = recording.stop();
        workload.close();
        System.out.println("RESULT " + json(engineId, result.engineDetail(), result.samples(), sink.worker, truth,
                sink.share(sink.hot), sink.share(sink.warm), sink.share(sink.cool), sink.idleSamples,
                String.valueOf(result.notes())));
        System.out.flush();
        System.exit(0);
    }

    private static String json(String engine, String detail, long samples, long workerSamples,
            SplitWorkload.CpuSplit truth, double hot, double warm, double cool, long idleSamples, String notes) {
        return String.format(Locale.ROOT, "{\"engine\":\"%s\",\"detail\":\"%s\",\"java\":\"%s\",\"samples\":%d,"
                        + "\"workerSamples\":%d,\"truthHot\":%.3f,\"truthWarm\":%.3f,\"truthCool\":%.3f,"
                        + "\"truthCpuMs\":%.1f,\"hot\":%s,\"warm\":%s,\"cool\":%s,\"idleSamples\":%d,\"notes\":\"%s\"}",
                engine, esc(detail), Runtime.version(), samples, workerSamples, truth.percent(truth.hot()),
                truth.percent(truth.warm()), truth.percent(truth.cool()),
                (truth.hot() + truth.warm() + truth.cool()) / 1e6, num(hot), num(warm), num(cool), idleSamples,
                esc(notes));
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", " ");
    }

    /** Counts the worker's samples (weighted) through each method, inclusive. */
    private static final class Counting implements StackSink {
        long worker;
        long hot;
        long warm;
        long cool;
        long idleSamples;

        @Override
        public synchronized void accept(List<Frame> frames, String thread, long weight) {
            if (thread != null && thread.startsWith(SplitWorkload.IDLE_PREFIX)) {
                idleSamples += weight;
            }
            if (!SplitWorkload.WORKER.equals(thread)) {
                return;
            }
            worker += weight;
            boolean h = false;
            boolean w = false;
            boolean c = false;
            for (Frame f : frames) {
                String n = f.name();
                h |= n.endsWith(".hotSixty");
                w |= n.endsWith(".warmThirty");
                c |= n.endsWith(".coolTen");
            }
            hot += h ? weight : 0;
            warm += w ? weight : 0;
            cool += c ? weight : 0;
        }

        synchronized double share(long part) {
            return worker == 0 ? Double.NaN : 100.0 * part / worker;
        }
    }
}
