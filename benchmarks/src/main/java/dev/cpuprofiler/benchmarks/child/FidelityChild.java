package dev.cpuprofiler.benchmarks.child;

import dev.cpuprofiler.internal.core.DefaultCpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/**
 * One fidelity run in its own JVM (started inside a quota cgroup when the harness made one): runs load phases and,
 * in the same process, compares three CPU figures with the kernel's own accounting.
 *
 * <ul>
 * <li>the product's: the {@link CpuProfiler} facade built as the starter builds it (source {@code auto}, trigger
 * off), its sampler's per-second figure, taken from a listener on the sampler thread; at that same moment the
 * listener reads {@code /proc/self/stat} (utime + stime) and the cgroup's usage counter;</li>
 * <li>{@code OperatingSystemMXBean.getProcessCpuLoad()}, read once a second (at +1/3 s);</li>
 * <li>Micrometer's {@code process.cpu.usage} gauge ({@link ProcessorMetrics}), read once a second (at +2/3 s).</li>
 * </ul>
 * The last two call the same JVM method, which keeps one measuring window for all callers: each reading covers only
 * the time since the other's. That is deliberate: it is what happens in an app where both are used. Never in the
 * product.
 *
 * <p>Usage: {@code FidelityChild <phase:seconds,...> <truthCpus> <cgroupUsageFile|-> <rawTsv> <skipSeconds>} with
 * phases {@code steady} (one busy thread), {@code bursty} (all CPUs busy 0.69 s of every 2.3 s: 30% duty),
 * {@code multi} (8 threads each busy 4 ms of every 20 ms). Prints one {@code RESULT {json}} line per phase.
 */
public final class FidelityChild {

    private static final long CLK_TCK_NANOS = 10_000_000L; // USER_HZ = 100 on Linux
    private static volatile long blackhole;

    private record Point(long nanos, double value, long procNanos, long cgroupNanos) {
    }

    private FidelityChild() {
    }

    public static void main(String[] args) throws Exception {
        String[] phases = args[0].split(",");
        double truthCpus = Double.parseDouble(args[1]);
        Path cgroupUsage = args[2].equals("-") ? null : Path.of(args[2]);
        Path raw = Path.of(args[3]);
        double skip = Double.parseDouble(args[4]);

        List<Point> product = new ArrayList<>();
        List<Point> mxbean = new ArrayList<>();
        List<Point> micrometer = new ArrayList<>();

        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setEnabled(false); // monitoring only: no CPU-triggered session
        DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options).build();
        profiler.sampler().addListener((nanoTime, cpuNanos, percent) -> {
            Point p = new Point(nanoTime, percent, procNanos(), cgroupNanos(cgroupUsage));
            synchronized (product) {
                product.add(p);
            }
        });
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ProcessorMetrics().bindTo(registry);
        Gauge processCpu = registry.get("process.cpu.usage").gauge();

        profiler.start();
        ScheduledExecutorService readers = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fidelity-readers");
            t.setDaemon(true);
            return t;
        });
        readers.scheduleAtFixedRate(() -> record(mxbean, os::getProcessCpuLoad), 333, 1000, TimeUnit.MILLISECONDS);
        readers.scheduleAtFixedRate(() -> record(micrometer, processCpu::value), 667, 1000, TimeUnit.MILLISECONDS);

        Thread.sleep(2500); // let the first samples arrive
        List<long[]> windows = new ArrayList<>();
        for (String phase : phases) {
            String[] kv = phase.split(":");
            double seconds = Double.parseDouble(kv[1]);
            long start = System.nanoTime();
            runLoad(kv[0], seconds, truthCpus);
            long end = System.nanoTime();
            windows.add(new long[] {start + (long) (skip * 1e9), end});
            Thread.sleep(2000); // idle gap between phases
        }
        readers.shutdownNow();
        String source = profiler.cpuSource().source().kind().id();
        double productCpus = profiler.cpuSource().effectiveCpus().count();
        String origin = profiler.cpuSource().effectiveCpus().origin();
        profiler.close();

        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(raw))) {
            out.println("series\tnanos\tvalue\tprocNanos\tcgroupNanos");
            dump(out, "product", product);
            dump(out, "mxbean", mxbean);
            dump(out, "micrometer", micrometer);
        }
        for (int i = 0; i < phases.length; i++) {
            String name = phases[i].split(":")[0];
            long[] w = windows.get(i);
            StringBuilder json = new StringBuilder();
            json.append(String.format(Locale.ROOT, "{\"phase\":\"%s\",\"source\":\"%s\",\"productCpus\":%s,"
                            + "\"productCpuOrigin\":\"%s\",\"truthCpus\":%s,\"availableProcessors\":%d,\"java\":\"%s\"",
                    name, source, productCpus, origin.replace("\"", "'"), truthCpus,
                    Runtime.getRuntime().availableProcessors(), Runtime.version()));
            json.append(",\"product\":").append(summary(product, w, truthCpus, 100, cgroupUsage != null));
            json.append(",\"mxbean\":").append(summary(mxbean, w, truthCpus, 1, false));
            json.append(",\"micrometer\":").append(summary(micrometer, w, truthCpus, 1, false));
            json.append('}');
            System.out.println("RESULT " + json);
        }
        System.out.flush();
        System.exit(0);
    }

    private static void record(List<Point> into, DoubleSupplier value) {
        double v = value.getAsDouble();
        Point p = new Point(System.nanoTime(), v * 100, procNanos(), -1);
        synchronized (into) {
            into.add(p);
        }
    }

    private static void dump(PrintWriter out, String series, List<Point> points) {
        synchronized (points) {
            for (Point p : points) {
                out.printf(Locale.ROOT, "%s\t%d\t%.4f\t%d\t%d%n", series, p.nanos, p.value, p.procNanos, p.cgroupNanos);
            }
        }
    }

    /**
     * Over the readings inside the window: the mean reading, the kernel's figure over the same span
     * ({@code /proc/self/stat}, and the cgroup's counter if any), and the per-reading error against the kernel's
     * figure over each reading's own interval (since the previous reading of the same series).
     */
    private static String summary(List<Point> all, long[] window, double cpus, double unused, boolean withCgroup) {
        List<Point> in = new ArrayList<>();
        synchronized (all) {
            for (Point p : all) {
                if (p.nanos >= window[0] && p.nanos <= window[1]) {
                    in.add(p);
                }
            }
        }
        if (in.size() < 3) {
            return "null";
        }
        double sum = 0;
        double absErr = 0;
        double maxErr = 0;
        double cgAbsErr = 0;
        int n = 0;
        for (int i = 1; i < in.size(); i++) {
            Point a = in.get(i - 1);
            Point b = in.get(i);
            double truth = pct(b.procNanos - a.procNanos, b.nanos - a.nanos, cpus);
            double v = b.value;
            if (Double.isNaN(v) || v < 0) {
                continue;
            }
            sum += v;
            absErr += Math.abs(v - truth);
            maxErr = Math.max(maxErr, Math.abs(v - truth));
            if (withCgroup) {
                cgAbsErr += Math.abs(v - pct(b.cgroupNanos - a.cgroupNanos, b.nanos - a.nanos, cpus));
            }
            n++;
        }
        Point first = in.get(0);
        Point last = in.get(in.size() - 1);
        double truthProc = pct(last.procNanos - first.procNanos, last.nanos - first.nanos, cpus);
        String cg = withCgroup ? String.format(Locale.ROOT, ",\"truthCgroup\":%.3f,\"maeCgroup\":%.3f",
                pct(last.cgroupNanos - first.cgroupNanos, last.nanos - first.nanos, cpus), cgAbsErr / n) : "";
        return String.format(Locale.ROOT, "{\"readings\":%d,\"mean\":%.3f,\"truth\":%.3f,\"mae\":%.3f,\"maxErr\":%.3f%s}",
                n, sum / n, truthProc, absErr / n, maxErr, cg);
    }

    private static double pct(long cpuNanos, long wallNanos, double cpus) {
        return 100.0 * cpuNanos / (wallNanos * cpus);
    }

    /** utime + stime of this process from /proc/self/stat, in ns (10 ms resolution). */
    static long procNanos() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * CLK_TCK_NANOS;
        } catch (IOException e) {
            return -1;
        }
    }

    static long cgroupNanos(Path usage) {
        if (usage == null) {
            return -1;
        }
        try {
            String s = Files.readString(usage).trim();
            if (usage.getFileName().toString().equals("cpu.stat")) { // cgroup v2
                for (String line : s.split("\n")) {
                    if (line.startsWith("usage_usec ")) {
                        return Long.parseLong(line.substring(11).trim()) * 1000;
                    }
                }
                return -1;
            }
            return Long.parseLong(s);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static void runLoad(String kind, double seconds, double cpus) throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        List<Thread> threads = new ArrayList<>();
        switch (kind) {
            case "steady" -> threads.add(new Thread(() -> spinUntil(end), "load-steady"));
            case "bursty" -> {
                int n = Runtime.getRuntime().availableProcessors();
                for (int i = 0; i < n; i++) {
                    threads.add(new Thread(() -> duty(end, 690_000_000L, 2_300_000_000L), "load-bursty-" + i));
                }
            }
            case "multi" -> {
                for (int i = 0; i < 8; i++) {
                    threads.add(new Thread(() -> duty(end, 4_000_000L, 20_000_000L), "load-multi-" + i));
                }
            }
            default -> throw new IllegalArgumentException("unknown load " + kind);
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
    }

    private static void spinUntil(long end) {
        long x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
        }
        blackhole = x;
    }

    /** Busy for {@code busy} ns of wall time, then asleep, every {@code period} ns, until {@code end}. */
    private static void duty(long end, long busy, long period) {
        long cycle = System.nanoTime();
        while (cycle < end) {
            spinUntil(Math.min(end, cycle + busy));
            long next = cycle + period;
            long sleep = next - System.nanoTime();
            if (sleep > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(sleep);
                } catch (InterruptedException e) {
                    return;
                }
            }
            cycle = next;
        }
    }
}
