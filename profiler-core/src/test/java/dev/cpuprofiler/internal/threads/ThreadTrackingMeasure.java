package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.ConcurrencyReport;

import dev.cpuprofiler.internal.cpu.EffectiveCpuCount;
import dev.cpuprofiler.internal.cpu.Ticker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Not a test: what thread tracking costs, in CPU time of the thread doing it (its own CPU clock, so other load on
 * the machine does not count), with 500 parked threads and 4 busy ones.
 * <ol>
 * <li>The tracker at the 1 s tick: steady-state CPU per tick (after the back-off has settled), as % of one core at
 * one tick a second. Ticks are fired back to back every 10 ms to get many of them quickly; what a tick costs depends
 * on the tick count (back-off), not on the time between ticks.</li>
 * <li>The 10 ms concurrency sampler during a profile: CPU of its thread over its wall time, as % of one core.</li>
 * <li>The same with a pool of 200 threads each working 0.2 ms every 100 ms besides (request handlers): threads that
 * keep waking are read more often.</li>
 * </ol>
 *
 * <pre>
 * mvn -q -pl profiler-core test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp profiler-core/target/classes:profiler-core/target/test-classes:$(cat profiler-core/target/cp.txt) \
 *   dev.cpuprofiler.internal.threads.ThreadTrackingMeasure [profileSeconds]
 * </pre>
 */
public final class ThreadTrackingMeasure {

    private static final ThreadMXBean BEAN = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        int profileSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        try (Workloads work = new Workloads()) {
            for (int i = 0; i < 500; i++) {
                work.parked("parked-" + i);
            }
            for (int i = 0; i < 4; i++) {
                work.busy("busy-" + i);
            }
            System.out.printf("Java %s, %d CPUs, %d live threads (500 parked, 4 busy), load average %.1f%n",
                    Runtime.version(), Runtime.getRuntime().availableProcessors(), BEAN.getThreadCount(),
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

            ThreadCpuReader reader = new ManagementThreadCpuReader();
            measureListing(reader);
            ThreadCpuTracker tracker = new ThreadCpuTracker(reader, new CpuProfilerOptions());
            measureTracker(tracker);
            measureProfile("profile", reader, tracker, profileSeconds);

            for (int i = 0; i < 200; i++) {
                work.together("request-" + i, 1, 200_000, 100_000_000L);
            }
            for (int i = 0; i < 5; i++) { // let the tracker see the new pool
                tracker.onSample(System.nanoTime(), 0, Double.NaN);
                Thread.sleep(200);
            }
            measureProfile("profile + 200 request threads", reader, tracker, profileSeconds);
        }
    }

    /** Listing thread ids and finding what changed: done every tick by the tracker, every 25 by the sampler. */
    private static void measureListing(ThreadCpuReader reader) throws InterruptedException {
        WatchedThreads.ThreadListing listing = new WatchedThreads.ThreadListing();
        long list = 0;
        long diff = 0;
        int n = 200;
        for (int i = 0; i < n + 50; i++) {
            Thread.sleep(10);
            long c0 = BEAN.getCurrentThreadCpuTime();
            long[] ids = reader.threadIds();
            long c1 = BEAN.getCurrentThreadCpuTime();
            listing.update(ids);
            long c2 = BEAN.getCurrentThreadCpuTime();
            if (i >= 50) {
                list += c1 - c0;
                diff += c2 - c1;
            }
        }
        System.out.printf("listing: getAllThreadIds() %.1f µs, sort + diff %.1f µs (each after a 10 ms sleep)%n",
                list / 1e3 / n, diff / 1e3 / n);
    }

    private static void measureTracker(ThreadCpuTracker tracker) throws InterruptedException {
        long first = BEAN.getCurrentThreadCpuTime();
        tracker.onSample(System.nanoTime(), 0, Double.NaN);
        long firstTick = BEAN.getCurrentThreadCpuTime() - first;
        for (int i = 0; i < 300; i++) { // warm-up: JIT, and the back-off settles at its cap (32 ticks)
            tracker.onSample(System.nanoTime(), 0, Double.NaN);
            Thread.sleep(10);
        }
        int ticks = 640;
        long reads = 0;
        long cpu = 0;
        for (int i = 0; i < ticks; i++) {
            Thread.sleep(10);
            long c0 = BEAN.getCurrentThreadCpuTime();
            tracker.onSample(System.nanoTime(), 0, Double.NaN);
            cpu += BEAN.getCurrentThreadCpuTime() - c0;
            reads += tracker.lastTickReads();
        }
        double perTickMicros = cpu / 1e3 / ticks;
        System.out.printf("tracker: first tick (reads all %d threads) %.0f µs; steady state %.1f µs per "
                + "tick, %.1f thread reads per tick => %.4f%% of one core at a 1 s tick (target < 0.1%%)%n",
                tracker.trackedThreads(), firstTick / 1e3, perTickMicros, (double) reads / ticks,
                perTickMicros / 1e6 * 100);
        System.out.printf("  top 5: %s%n", tracker.top(5).stream()
                .map(t -> String.format("%s %.0f%% %s", t.name(), t.cpuPercent(), t.label())).toList());
    }

    private static void measureProfile(String what, ThreadCpuReader reader, ThreadCpuTracker tracker, int seconds)
            throws InterruptedException {
        AtomicReference<Thread> samplerThread = new AtomicReference<>();
        ConcurrencySampler sampler = new ConcurrencySampler(reader, tracker, new EffectiveCpuCount(
                Runtime.getRuntime().availableProcessors(), "measure"), Ticker.system(), r -> {
                    Thread t = new Thread(r, "cpuprofiler-concurrency");
                    t.setDaemon(true);
                    samplerThread.set(t);
                    return t;
                });
        long t0 = System.nanoTime();
        sampler.start();
        Thread.sleep(seconds * 1000L);
        // Read the sampler thread's CPU just before stopping: the final read-everything tick and the report are
        // once per profile, measured separately below.
        long cpu = BEAN.getThreadCpuTime(samplerThread.get().getId());
        long wall = System.nanoTime() - t0;
        long s0 = System.nanoTime();
        Optional<ConcurrencyReport> report = sampler.stop();
        long stopMicros = (System.nanoTime() - s0) / 1000;
        System.out.printf("%s: 10 ms sampler used %.1f ms CPU in %.1f s => %.3f%% of one core (target < 1%%); "
                + "stop() took %d µs wall%n", what, cpu / 1e6, wall / 1e9, cpu * 100.0 / wall, stopMicros);
        report.ifPresent(r -> System.out.printf("  utilization %.1f%%, bottleneck %.1f%% [%.1f..%.1f], average "
                + "running %.2f, %d threads seen, histogram %s%n", r.utilization() * 100, r.bottleneck() * 100,
                r.bottleneckLow() * 100, r.bottleneckHigh() * 100, r.averageRunning(), r.threadsSeen(),
                histogram(r)));
    }

    private static List<String> histogram(ConcurrencyReport r) {
        List<String> bins = new ArrayList<>();
        for (ConcurrencyReport.Bin b : r.histogram()) {
            bins.add(String.format("%d:%.2fs", b.threads(), b.seconds()));
        }
        return bins;
    }

    private ThreadTrackingMeasure() {
    }
}
