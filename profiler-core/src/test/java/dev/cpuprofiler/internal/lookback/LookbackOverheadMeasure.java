package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import static dev.cpuprofiler.internal.lookback.TestRecorders.stepAside;
import dev.cpuprofiler.internal.trigger.Holds;
import com.sun.management.OperatingSystemMXBean;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.fixtures.CountedDeepWork;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.EngineLock;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * Not a test: what look-back costs in steady state, with the settings a user gets ({@code lookback=30s},
 * {@code lookback-sampling-period=20ms}).
 * <ol>
 * <li>Throughput: one thread per CPU runs units of a 24-deep call chain ending in arithmetic (stack walks cost what
 * they cost in real code). Each round measures off, on, off, off windows; its ratio is the on window over the mean
 * of the two off windows around it (linear drift cancels), and the last pair (off over off) is a control that
 * shows the noise floor. Medians are printed. On a shared machine the ratio is as noisy as the control shows, so
 * the CPU time of the threads look-back runs on is measured too ({@code /proc/self/task/N/schedstat}, nanoseconds,
 * independent of other processes' load): JFR's sampler thread (it suspends each sampled thread while it walks its
 * stack, so its time is also the workers' loss), JFR's recorder thread, the stream thread that parses and merges,
 * and the ticker.</li>
 * <li>Idle: the workload stops; 50 parked threads stay, like an idle web application's pools. Process CPU time
 * (all JVM threads) per minute, look-back on and off alternating, medians, and the look-back threads' share.</li>
 * <li>Memory: the ring's footprint after the busy phase, the JVM's resident set before JFR first starts and after,
 * and the JFR repository's size on disk while the stream runs.</li>
 * </ol>
 *
 * <pre>
 * mvn -q -pl profiler-core -am test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints [-Dlookback.period=PT0.02S] \
 *   -cp profiler-core/target/classes:profiler-core/target/test-classes:profiler-test-fixtures/target/classes:$(cat profiler-core/target/cp.txt) \
 *   dev.cpuprofiler.internal.lookback.LookbackOverheadMeasure [rounds] [windowSeconds] [idleRounds] [idleSeconds]
 * </pre>
 */
public final class LookbackOverheadMeasure {

    private static final int PARKED_THREADS = 50;
    private static final Duration SETTLE_AFTER_STEP_ASIDE = Duration.ofMillis(500);
    // A resumed stream parses a new chunk's metadata and constant pools first: measure the steady state after it.
    private static final Duration WARM_AFTER_RESUME_ON = Duration.ofSeconds(3);
    // Names that survive /proc's 15-character cut, so their CPU time can be told apart.
    private static final String STREAM_THREAD = "lookback-stream";
    private static final String TICKER_THREAD = "lookback-ticker";

    /** One measuring window: units per second of wall time, and per second of the workers' own CPU time. */
    private record Window(double perSecond, double perCpuSecond) {
    }

    private final CountedDeepWork work = new CountedDeepWork();
    private final List<Thread> workers = new ArrayList<>();
    private final ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();
    private final List<Map<String, Double>> busyThreadCpu = new ArrayList<>();
    private final List<Map<String, Double>> idleThreadCpu = new ArrayList<>();
    private long repositoryBytes;
    private final OperatingSystemMXBean os =
            (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

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
            Thread t = new Thread(work, "worker-" + i);
            t.setDaemon(true);
            t.start();
            workers.add(t);
        }
        Duration period = Duration.parse(System.getProperty("lookback.period",
                new CpuProfilerOptions().getLookbackSamplingPeriod().toString()));
        CpuProfilerOptions settings = TestRecorders.options(Duration.ofSeconds(30), period, Duration.ofMillis(10), 512);
        // The source a default install picks here (engine auto): CPU time on JDK 25, jdk.ExecutionSample on 17.
        LookbackSourceChoice choice = LookbackSourceChoice.choose(EngineChoice.AUTO, 512,
                r -> new Thread(r, STREAM_THREAD), DiskSpaceGuard.auto(), JfrPeriodicTaskKeeper.none());
        System.out.println("look-back source: " + choice.reason());
        LookbackRecorder recorder = TestRecorders.alwaysArmed(settings, new Holds(), choice.source(),
                new EngineLock(), Clock.systemUTC());
        LookbackTicks ticks = LookbackTicks.every(recorder, LookbackRecorder.TICK, r -> {
            Thread t = new Thread(r, TICKER_THREAD);
            t.setDaemon(true);
            return t;
        });
        System.out.printf("Java %s, %d CPUs, %d worker threads + %d parked; look-back %s every %s; %d rounds of %s,"
                        + " idle %d rounds of %s%n", Runtime.version(), threads, threads, PARKED_THREADS,
                settings.getLookback(), settings.getLookbackSamplingPeriod(), rounds, window, idleRounds, idleWindow);
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
        List<Double> cpuRatios = new ArrayList<>();
        List<Double> cpuControl = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            Window off1 = measure(window);
            Window on = measureOn(recorder, window, samplesPerSecond);
            footprint = Math.max(footprint, recorder.status().footprintBytes());
            stepAsideMs.add(stepAside(recorder));
            Window off2 = measure(window);
            Window off3 = measure(window);
            ratios.add(on.perSecond() / ((off1.perSecond() + off2.perSecond()) / 2));
            control.add(off3.perSecond() / off2.perSecond());
            cpuRatios.add(on.perCpuSecond() / ((off1.perCpuSecond() + off2.perCpuSecond()) / 2));
            cpuControl.add(off3.perCpuSecond() / off2.perCpuSecond());
            System.out.printf("round %d: on/off %.3f  off/off %.3f   per worker CPU-second: on/off %.3f  "
                            + "off/off %.3f%n",
                    round + 1, ratios.get(round), control.get(round), cpuRatios.get(round), cpuControl.get(round));
        }
        work.stop();
        Thread.sleep(1_000);

        List<Double> idleOn = new ArrayList<>();
        List<Double> idleOff = new ArrayList<>();
        for (int round = 0; round < idleRounds; round++) {
            recorder.resume();
            Thread.sleep(WARM_AFTER_RESUME_ON.toMillis());
            Map<String, Long> cpu0 = lookbackThreadsCpu();
            long t0 = System.nanoTime();
            idleOn.add(cpuMsPerMinute(idleWindow));
            idleThreadCpu.add(perSecond(cpu0, lookbackThreadsCpu(), System.nanoTime() - t0));
            stepAside(recorder);
            Thread.sleep(SETTLE_AFTER_STEP_ASIDE.toMillis());
            idleOff.add(cpuMsPerMinute(idleWindow));
            System.out.printf("idle round %d: on %.0f ms CPU/min, off %.0f ms CPU/min%n", round + 1,
                    idleOn.get(round), idleOff.get(round));
        }
        ticks.close();
        recorder.close();

        System.out.println();
        System.out.printf("busy throughput ratio on/off: median %.3f (min %.3f, max %.3f) => overhead %.1f%%%n",
                median(ratios), min(ratios), max(ratios), (1 - median(ratios)) * 100);
        System.out.printf("control off/off:              median %.3f (min %.3f, max %.3f)%n", median(control),
                min(control), max(control));
        System.out.printf("units per worker CPU-second on/off: median %.3f (min %.3f, max %.3f); control %.3f "
                        + "(min %.3f, max %.3f)%n", median(cpuRatios), min(cpuRatios), max(cpuRatios),
                median(cpuControl), min(cpuControl), max(cpuControl));
        System.out.printf("look-back threads' CPU while busy: %s%n", describe(busyThreadCpu));
        System.out.printf("look-back samples/s while busy: median %.0f; stepAside() median %.0f ms (max %.0f)%n",
                median(samplesPerSecond), median(stepAsideMs), max(stepAsideMs));
        System.out.printf("idle process CPU: on median %.0f ms/min, off median %.0f ms/min => %+.0f ms/min "
                        + "(%.2f%% of one core)%n", median(idleOn), median(idleOff),
                median(idleOn) - median(idleOff), (median(idleOn) - median(idleOff)) / 600.0);
        System.out.printf("look-back threads' CPU while idle: %s%n", describe(idleThreadCpu));
        System.out.printf("ring footprint (busy, full window): %d KB; RSS before JFR %d MB, after 3 s of look-back "
                        + "%d MB (+%d MB); JFR repository on disk while recording: at most %d KB%n", footprint / 1024,
                rssBefore / 1024,
                rssAfter / 1024, (rssAfter - rssBefore) / 1024, repositoryBytes / 1024);
    }

    private Window measureOn(LookbackRecorder recorder, Duration window, List<Double> samplesPerSecond)
            throws Exception {
        recorder.resume();
        Thread.sleep(WARM_AFTER_RESUME_ON.toMillis());
        repositoryBytes = Math.max(repositoryBytes, repositoryBytes());
        long before = recorder.status().samples();
        Map<String, Long> cpu0 = lookbackThreadsCpu();
        long t0 = System.nanoTime();
        Window on = measure(window);
        busyThreadCpu.add(perSecond(cpu0, lookbackThreadsCpu(), System.nanoTime() - t0));
        Thread.sleep(1_200); // let the last flush arrive before counting
        samplesPerSecond.add((recorder.status().samples() - before) / (window.toMillis() / 1000.0));
        return on;
    }

    /** CPU nanoseconds per second of each look-back thread group between two readings. */
    private static Map<String, Double> perSecond(Map<String, Long> before, Map<String, Long> after, long nanos) {
        Map<String, Double> rates = new TreeMap<>();
        after.forEach((group, ns) -> rates.put(group, (ns - before.getOrDefault(group, 0L)) / (nanos / 1e9)));
        return rates;
    }

    /** CPU nanoseconds so far of the threads look-back runs on, by group (JFR's threads and ours). */
    private static Map<String, Long> lookbackThreadsCpu() throws IOException {
        Map<String, Long> byGroup = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String comm = Files.readString(task.resolve("comm")).strip();
                    // "JFR Thread Sampler" on JDK 17, "JFR Sampler Thread" on 25, cut to 15 characters by /proc
                    String group = comm.startsWith("JFR") && comm.contains("Samp") ? "JFR sampler"
                            : comm.startsWith("JFR Recorder") ? "JFR Recorder Thread"
                            : comm.startsWith("JFR Periodic") ? "JFR Periodic Tasks"
                            : comm.equals(STREAM_THREAD) || comm.equals(TICKER_THREAD) ? "look-back stream+ticker"
                            : null;
                    if (group != null) {
                        long ns = Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
                        byGroup.merge(group, ns, Long::sum);
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended between listing and reading
                }
            }
        }
        return byGroup;
    }

    /** Median per group of per-second CPU rates, in milliseconds per second (= thousandths of one core). */
    private static String describe(List<Map<String, Double>> rates) {
        Map<String, List<Double>> byGroup = new TreeMap<>();
        for (Map<String, Double> r : rates) {
            r.forEach((g, ns) -> byGroup.computeIfAbsent(g, x -> new ArrayList<>()).add(ns / 1e6));
        }
        StringBuilder b = new StringBuilder();
        double total = 0;
        for (Map.Entry<String, List<Double>> e : byGroup.entrySet()) {
            b.append(String.format("%s %.2f ms/s, ", e.getKey(), median(e.getValue())));
            total += median(e.getValue());
        }
        return b.append(String.format("total %.2f ms/s = %.2f%% of one core", total, total / 10)).toString();
    }

    private static double stepAside(LookbackRecorder recorder) {
        long t0 = System.nanoTime();
        stepAside(recorder);
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

    private Window measure(Duration window) throws InterruptedException {
        long start = work.units();
        long cpu0 = workersCpuNanos();
        long t0 = System.nanoTime();
        Thread.sleep(window.toMillis());
        long done = work.units() - start;
        long cpu = workersCpuNanos() - cpu0;
        return new Window(done / ((System.nanoTime() - t0) / 1e9), done / (cpu / 1e9));
    }

    private long workersCpuNanos() {
        long sum = 0;
        for (Thread t : workers) {
            sum += threadBean.getThreadCpuTime(t.getId());
        }
        return sum;
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
