package dev.cpuprofiler.lookback;

import com.sun.management.OperatingSystemMXBean;
import dev.cpuprofiler.session.engine.EngineLock;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Not a test: what look-back costs in steady state, with the settings a user gets ({@code lookback=30s},
 * {@code lookback-sampling-period=20ms}).
 * <ol>
 * <li>Throughput: one thread per CPU runs units of a 24-deep call chain ending in arithmetic (stack walks cost what
 * they cost in real code). Each round measures off, on, off, off windows; its ratio is the on window over the mean
 * of the two off windows around it (linear drift cancels), and the last pair (off over off) is a control that
 * shows the noise floor. Medians are printed.</li>
 * <li>Idle: the workload stops; 50 parked threads stay, like an idle web application's pools. Process CPU time
 * (all JVM threads) per minute, look-back on and off alternating, medians.</li>
 * <li>Memory: the ring's footprint after the busy phase, the JVM's resident set before JFR first starts and after,
 * and the JFR repository's size on disk.</li>
 * </ol>
 *
 * <pre>
 * mvn -q -pl profiler-core test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
 *   -cp profiler-core/target/classes:profiler-core/target/test-classes:$(cat profiler-core/target/cp.txt) \
 *   dev.cpuprofiler.lookback.LookbackOverheadMeasure [rounds] [windowSeconds] [idleRounds] [idleSeconds]
 * </pre>
 */
public final class LookbackOverheadMeasure {

    private static final int DEPTH = 24;
    private static final int PARKED_THREADS = 50;
    private static final Duration WARM_AFTER_RESUME = Duration.ofMillis(500);

    private final LongAdder units = new LongAdder();
    private final OperatingSystemMXBean os =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private volatile boolean working = true;
    private volatile long blackhole;

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 9;
        Duration window = Duration.ofSeconds(args.length > 1 ? Long.parseLong(args[1]) : 2);
        int idleRounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Duration idleWindow = Duration.ofSeconds(args.length > 3 ? Long.parseLong(args[3]) : 20);
        new LookbackOverheadMeasure().run(rounds, window, idleRounds, idleWindow);
    }

    private void run(int rounds, Duration window, int idleRounds, Duration idleWindow) throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        for (int i = 0; i < PARKED_THREADS; i++) {
            Thread t = new Thread(() -> awaitQuietly(never), "parked-" + i);
            t.setDaemon(true);
            t.start();
        }
        int threads = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::work, "worker-" + i);
            t.setDaemon(true);
            t.start();
        }
        LookbackSettings settings = new LookbackSettings(Duration.ofSeconds(30), LookbackSettings.DEFAULT_PERIOD,
                Duration.ofMillis(10), 512, LookbackSettings.DEFAULT_MAX_TREE_NODES, false);
        LookbackRecorder recorder = new LookbackRecorder(settings, new JfrExecutionSampleSource(512, r -> new Thread(r, "cpuprofiler-lookback-stream")),
                new EngineLock(), Clock.systemUTC(), r -> {
                    Thread t = new Thread(r, "cpuprofiler-lookback");
                    t.setDaemon(true);
                    return t;
                });
        System.out.printf("Java %s, %d CPUs, %d worker threads + %d parked; look-back %s every %s; %d rounds of %s,"
                        + " idle %d rounds of %s%n", Runtime.version(), threads, threads, PARKED_THREADS,
                settings.window(), settings.samplingPeriod(), rounds, window, idleRounds, idleWindow);
        measure(Duration.ofSeconds(3)); // JIT warm-up, JFR not started yet
        long rssBefore = rssKb();

        recorder.start();
        Thread.sleep(3_000);
        long rssAfter = rssKb();
        List<Double> stepAsideMs = new ArrayList<>();
        stepAsideMs.add(stepAside(recorder));

        List<Double> ratios = new ArrayList<>();
        List<Double> control = new ArrayList<>();
        List<Double> samplesPerSecond = new ArrayList<>();
        long footprint = 0;
        for (int round = 0; round < rounds; round++) {
            double off1 = measure(window);
            double on = measureOn(recorder, window, samplesPerSecond);
            footprint = Math.max(footprint, recorder.status().footprintBytes());
            stepAsideMs.add(stepAside(recorder));
            double off2 = measure(window);
            double off3 = measure(window);
            ratios.add(on / ((off1 + off2) / 2));
            control.add(off3 / off2);
            System.out.printf("round %d: on/off %.3f  off/off %.3f%n", round + 1, ratios.get(round),
                    control.get(round));
        }
        working = false;
        Thread.sleep(1_000);

        List<Double> idleOn = new ArrayList<>();
        List<Double> idleOff = new ArrayList<>();
        for (int round = 0; round < idleRounds; round++) {
            recorder.resume();
            Thread.sleep(WARM_AFTER_RESUME.toMillis());
            idleOn.add(cpuMsPerMinute(idleWindow));
            recorder.stepAside();
            Thread.sleep(WARM_AFTER_RESUME.toMillis());
            idleOff.add(cpuMsPerMinute(idleWindow));
            System.out.printf("idle round %d: on %.0f ms CPU/min, off %.0f ms CPU/min%n", round + 1,
                    idleOn.get(round), idleOff.get(round));
        }
        recorder.close();
        long repositoryBytes = repositoryBytes();

        System.out.println();
        System.out.printf("busy throughput ratio on/off: median %.3f (min %.3f, max %.3f) => overhead %.1f%%%n",
                median(ratios), min(ratios), max(ratios), (1 - median(ratios)) * 100);
        System.out.printf("control off/off:              median %.3f (min %.3f, max %.3f)%n", median(control),
                min(control), max(control));
        System.out.printf("look-back samples/s while busy: median %.0f; stepAside() median %.0f ms (max %.0f)%n",
                median(samplesPerSecond), median(stepAsideMs), max(stepAsideMs));
        System.out.printf("idle process CPU: on median %.0f ms/min, off median %.0f ms/min => +%.0f ms/min "
                        + "(%.2f%% of one core)%n", median(idleOn), median(idleOff),
                median(idleOn) - median(idleOff), (median(idleOn) - median(idleOff)) / 600.0);
        System.out.printf("ring footprint (busy, full window): %d KB; RSS before JFR %d MB, after 3 s of look-back "
                        + "%d MB (+%d MB); JFR repository on disk %d KB%n", footprint / 1024, rssBefore / 1024,
                rssAfter / 1024, (rssAfter - rssBefore) / 1024, repositoryBytes / 1024);
    }

    private double measureOn(LookbackRecorder recorder, Duration window, List<Double> samplesPerSecond)
            throws InterruptedException {
        recorder.resume();
        Thread.sleep(WARM_AFTER_RESUME.toMillis()); // past the stream's start-up
        long before = recorder.status().samples();
        double on = measure(window);
        Thread.sleep(1_200); // let the last flush arrive before counting
        samplesPerSecond.add((recorder.status().samples() - before) / (window.toMillis() / 1000.0));
        return on;
    }

    private static double stepAside(LookbackRecorder recorder) {
        long t0 = System.nanoTime();
        recorder.stepAside();
        return (System.nanoTime() - t0) / 1e6;
    }

    private double cpuMsPerMinute(Duration window) throws InterruptedException {
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        Thread.sleep(window.toMillis());
        double cpuMs = (os.getProcessCpuTime() - cpu0) / 1e6;
        double minutes = (System.nanoTime() - t0) / 60e9;
        return cpuMs / minutes;
    }

    private double measure(Duration window) throws InterruptedException {
        long start = units.sum();
        long t0 = System.nanoTime();
        Thread.sleep(window.toMillis());
        long done = units.sum() - start;
        return done / ((System.nanoTime() - t0) / 1e9);
    }

    private void work() {
        long x = 1;
        while (working) {
            x += descend(DEPTH, x);
            units.increment();
        }
        blackhole = x;
    }

    private long descend(int depth, long seed) {
        if (depth == 0) {
            return leaf(seed);
        }
        return descend(depth - 1, seed + depth) ^ depth;
    }

    private long leaf(long seed) {
        long[] scratch = new long[16];
        long x = seed | 1;
        for (int i = 0; i < 20_000; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            scratch[i & 15] += x;
        }
        return x + Arrays.stream(scratch).sum();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long rssKb() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }

    private static long repositoryBytes() throws IOException {
        String repository = System.getProperty("jdk.jfr.repository");
        if (repository == null) {
            return -1;
        }
        try (Stream<Path> files = Files.walk(Path.of(repository))) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static double median(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(d -> d).sorted().toArray();
        int n = sorted.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(d -> d).min().orElse(Double.NaN);
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(d -> d).max().orElse(Double.NaN);
    }
}
