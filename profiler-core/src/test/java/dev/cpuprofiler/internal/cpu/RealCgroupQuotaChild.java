package dev.cpuprofiler.internal.cpu;

import dev.cpuprofiler.CpuSourceMode;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs inside the 1.5-CPU cgroup {@link RealCgroupQuotaTest} creates: burns exactly one core on one thread, selects
 * the CPU source as the starter would ({@code auto}) and lets the real {@link CpuSampler} measure it for about five
 * seconds. Prints one {@code RESULT} line for the test to check.
 */
public final class RealCgroupQuotaChild {

    private RealCgroupQuotaChild() {
    }

    public static void main(String[] args) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong burnerThreadId = new AtomicLong();
        Thread burner = new Thread(() -> {
            burnerThreadId.set(Thread.currentThread().getId());
            long x = 0;
            while (!stop.get()) {
                x += Long.numberOfTrailingZeros(x + 1) ^ (x >>> 3);
            }
            System.out.println("burner done " + (x == 42 ? "!" : ""));
        }, "burner");
        burner.setDaemon(true);
        burner.start();

        CpuSourceSelector.Selected selected = new CpuSourceSelector(Path.of("/")).select(CpuSourceMode.AUTO);
        // Let class loading and the JIT calm down so that only the burner's core remains.
        Thread.sleep(2000);

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double[] percentSum = new double[1];
        int[] percentCount = new int[1];
        long[] first = {-1, -1};
        long[] last = {-1, -1};
        CpuSampler sampler = new CpuSampler(selected.source(), selected.effectiveCpus(), Duration.ofSeconds(1),
                Ticker.system(), r -> {
                    Thread t = new Thread(r, "cpu-sampler");
                    t.setDaemon(true);
                    return t;
                });
        sampler.addListener((nanoTime, cpuTimeNanos, percent) -> {
            if (first[0] < 0) {
                first[0] = nanoTime;
                first[1] = cpuTimeNanos;
            }
            last[0] = nanoTime;
            last[1] = cpuTimeNanos;
            if (!Double.isNaN(percent)) {
                percentSum[0] += percent;
                percentCount[0]++;
                System.out.println("SAMPLE " + String.format(Locale.ROOT, "%.2f", percent));
            }
        });
        long wallStart = System.nanoTime();
        long processStart = os.getProcessCpuTime();
        long burnerStart = threads.getThreadCpuTime(burnerThreadId.get());
        sampler.start();
        Thread.sleep(5_300);
        sampler.close();
        long wall = System.nanoTime() - wallStart;
        double processCores = (double) (os.getProcessCpuTime() - processStart) / wall;
        double burnerCores = (double) (threads.getThreadCpuTime(burnerThreadId.get()) - burnerStart) / wall;
        stop.set(true);

        System.out.println(String.format(Locale.ROOT,
                "RESULT kind=%s cpus=%s samples=%d meanPercent=%.3f latestPercent=%.3f processCores=%.3f "
                        + "burnerCores=%.3f availableProcessors=%d origin=%s",
                selected.source().kind().id(), selected.effectiveCpus().count(), percentCount[0],
                percentCount[0] == 0 ? Double.NaN : percentSum[0] / percentCount[0], sampler.latestPercent(),
                processCores, burnerCores, Runtime.getRuntime().availableProcessors(),
                selected.effectiveCpus().origin().replace(' ', '_')));
    }
}
