package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.fixtures.CountedDeepWork;
import dev.cpuprofiler.internal.stack.StackSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Not a test: how much throughput a CPU-bound workload keeps while each engine that can run here records at 10 ms.
 * One thread per CPU runs units of work (a 24-deep call chain ending in arithmetic and a small allocation, so stack
 * walks cost what they cost in real code). Each round measures off, engine, off, engine, ... for a fixed window; an
 * engine's ratio is its throughput over the mean of the two off windows around it. Medians over the rounds are
 * printed, with the median time stop() takes to parse and deliver (outside the windows). A control slot that records
 * nothing shows the noise floor.
 *
 * <pre>
 * mvn -q -pl profiler-core test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
 *   -cp profiler-core/target/classes:profiler-core/target/test-classes:$(cat profiler-core/target/cp.txt) \
 *   dev.cpuprofiler.internal.engine.EngineOverheadMeasure [rounds] [windowSeconds]
 * </pre>
 */
public final class EngineOverheadMeasure {

    private static final Duration PERIOD = Duration.ofMillis(10);

    private final CountedDeepWork work = new CountedDeepWork();

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Duration window = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 2);
        new EngineOverheadMeasure().run(rounds, window);
    }

    private void run(int rounds, Duration window) throws Exception {
        int threads = Runtime.getRuntime().availableProcessors();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(work, "overhead-worker-" + i);
            t.setDaemon(true);
            t.start();
            workers.add(t);
        }
        Path dir = Files.createTempDirectory("engine-overhead");
        List<ProfilingEngine> engines = enginesThatStart(dir);
        engines.add(new NoEngine()); // control: the spread of its "ratio" is the noise floor of this machine
        System.out.printf("Java %s, %d worker threads, %d rounds of %s windows, period %s, engines %s%n",
                Runtime.version(), threads, rounds, window, PERIOD, engines.stream().map(ProfilingEngine::id).toList());
        measure(Duration.ofSeconds(3)); // JIT warm-up

        Map<String, List<Double>> ratios = new LinkedHashMap<>();
        Map<String, List<Double>> stopMillis = new LinkedHashMap<>();
        Map<String, List<Double>> samplesPerSecond = new LinkedHashMap<>();
        List<Double> offThroughput = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            double before = measure(window);
            offThroughput.add(before);
            for (int k = 0; k < engines.size(); k++) {
                // Rotate the order so no engine always follows the same one (round 0 keeps jfr-cpu-time first).
                ProfilingEngine engine = engines.get((k + round) % engines.size());
                LongAdder delivered = new LongAdder();
                StackSink sink = (frames, thread, weight) -> delivered.add(weight);
                EngineRecording recording = engine.start(EngineSettings.of(PERIOD, 512, dir), sink);
                Thread.sleep(300); // past the start-up transient
                double on = measure(window);
                long t0 = System.nanoTime();
                EngineRecording.Result result = recording.stop();
                double stopMs = (System.nanoTime() - t0) / 1e6;
                if (result.jfrFile() != null) {
                    Files.deleteIfExists(result.jfrFile());
                }
                double after = measure(window);
                offThroughput.add(after);
                ratios.computeIfAbsent(engine.id(), x -> new ArrayList<>()).add(on / ((before + after) / 2));
                stopMillis.computeIfAbsent(engine.id(), x -> new ArrayList<>()).add(stopMs);
                samplesPerSecond.computeIfAbsent(engine.id(), x -> new ArrayList<>())
                        .add(result.samples() / (window.toMillis() / 1000.0 + 0.3));
                before = after;
            }
            System.out.printf("round %d: %s%n", round + 1, lastOf(ratios));
        }
        work.stop();
        System.out.printf("off throughput: median %.0f units/s (min %.0f, max %.0f)%n", median(offThroughput),
                offThroughput.stream().mapToDouble(d -> d).min().orElse(0),
                offThroughput.stream().mapToDouble(d -> d).max().orElse(0));
        for (String id : ratios.keySet()) {
            List<Double> r = ratios.get(id);
            System.out.printf("%-16s throughput ratio median %.3f (min %.3f, max %.3f), overhead %.1f%%; "
                            + "stop() median %.0f ms; ~%.0f samples/s%n", id, median(r),
                    r.stream().mapToDouble(d -> d).min().orElse(0), r.stream().mapToDouble(d -> d).max().orElse(0),
                    (1 - median(r)) * 100, median(stopMillis.get(id)), median(samplesPerSecond.get(id)));
        }
        try (var files = Files.list(dir)) {
            files.forEach(p -> p.toFile().delete());
        }
        Files.deleteIfExists(dir);
    }

    private static List<ProfilingEngine> enginesThatStart(Path dir) {
        List<ProfilingEngine> usable = new ArrayList<>();
        for (ProfilingEngine engine : EngineSelector.standardEngines()) {
            try {
                EngineRecording.Result r = engine.start(EngineSettings.of(PERIOD, 512, dir), (f, t, w) -> { }).stop();
                if (r.jfrFile() != null) {
                    Files.deleteIfExists(r.jfrFile());
                }
                usable.add(engine);
            } catch (Exception e) {
                System.out.println("skipping " + engine.id() + ": " + e.getMessage());
            }
        }
        return usable;
    }

    /** Records nothing; measured like an engine to show how far ratios move by noise alone. */
    private static final class NoEngine implements ProfilingEngine {

        @Override
        public String id() {
            return "none (control)";
        }

        @Override
        public EngineRecording start(EngineSettings settings, StackSink sink) {
            return new EngineRecording() {
                @Override
                public String engineId() {
                    return id();
                }

                @Override
                public long samplesSoFar() {
                    return 0;
                }

                @Override
                public EngineRecording.Result stop() {
                    return new EngineRecording.Result(id(), "none", 0, 0, null, List.of(), List.of());
                }

                @Override
                public void cancel() {
                }
            };
        }
    }

    private double measure(Duration window) throws InterruptedException {
        long start = work.units();
        long t0 = System.nanoTime();
        Thread.sleep(window.toMillis());
        long done = work.units() - start;
        return done / ((System.nanoTime() - t0) / 1e9);
    }

    private static String lastOf(Map<String, List<Double>> ratios) {
        StringBuilder b = new StringBuilder();
        ratios.forEach((id, r) -> b.append(String.format("%s %.3f  ", id, r.get(r.size() - 1))));
        return b.toString();
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(d -> d).sorted().toArray();
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
