package dev.cpuprofiler.benchmarks.child;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Copied from profiler-core's test {@code SplitWorkload} (tests are not a dependency): one thread that splits its
 * CPU time 60/30/10 across {@code hotSixty}, {@code warmThirty} and {@code coolTen}, next to a pool of parked idle
 * threads. The split is CPU work (the same arithmetic kernel, calibrated to about 10 ms per unit, 6/3/1 units per
 * round) measured with the thread's own CPU clock around each call, so the truth is known for exactly the window a
 * recording covers. Rounds last about 100 ms.
 *
 * <p>{@code keepWarmup}: count the warm-up rounds too (for a profiler that starts with the JVM, like an agent).
 */
public final class SplitWorkload implements AutoCloseable {

    public static final String WORKER = "split-worker";
    public static final String IDLE_PREFIX = "idle-pool-";
    static final int IDLE_THREADS = 4;
    private static final long UNIT_NANOS = 10_000_000L;

    /** CPU nanoseconds the worker spent in each method so far. */
    public record CpuSplit(long hot, long warm, long cool) {

        public CpuSplit minus(CpuSplit earlier) {
            return new CpuSplit(hot - earlier.hot, warm - earlier.warm, cool - earlier.cool);
        }

        public double percent(long part) {
            return 100.0 * part / (hot + warm + cool);
        }
    }

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final AtomicLong hot = new AtomicLong();
    private final AtomicLong warm = new AtomicLong();
    private final AtomicLong cool = new AtomicLong();
    private final CountDownLatch ready = new CountDownLatch(1);
    private final Thread worker;
    private final ThreadPoolExecutor idlePool;
    private final boolean keepWarmup;
    private volatile boolean running = true;
    private volatile long unit = 100_000;
    private volatile long blackhole;

    public SplitWorkload(boolean keepWarmup) {
        this.keepWarmup = keepWarmup;
        AtomicInteger n = new AtomicInteger();
        idlePool = new ThreadPoolExecutor(IDLE_THREADS, IDLE_THREADS, 1, TimeUnit.HOURS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, IDLE_PREFIX + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        idlePool.prestartAllCoreThreads();
        worker = new Thread(this::run, WORKER);
        worker.setDaemon(true);
    }

    /** Starts the worker and returns once it is compiled and calibrated. */
    public SplitWorkload start() throws InterruptedException {
        worker.start();
        if (!ready.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("workload did not warm up");
        }
        return this;
    }

    public CpuSplit snapshot() {
        return new CpuSplit(hot.get(), warm.get(), cool.get());
    }

    private void run() {
        long warmupEnd = threads.getCurrentThreadCpuTime() + 1_500_000_000L;
        while (threads.getCurrentThreadCpuTime() < warmupEnd) {
            long before = total();
            round();
            long spent = Math.max(1, total() - before);
            unit = Math.max(1_000, (long) ((double) unit * 10 * UNIT_NANOS / spent));
        }
        if (!keepWarmup) {
            hot.set(0);
            warm.set(0);
            cool.set(0);
        }
        ready.countDown();
        while (running) {
            round();
        }
    }

    private long total() {
        return hot.get() + warm.get() + cool.get();
    }

    private void round() {
        long u = unit;
        long t0 = threads.getCurrentThreadCpuTime();
        long x = hotSixty(6 * u);
        long t1 = threads.getCurrentThreadCpuTime();
        x += warmThirty(3 * u);
        long t2 = threads.getCurrentThreadCpuTime();
        x += coolTen(u);
        long t3 = threads.getCurrentThreadCpuTime();
        hot.addAndGet(t1 - t0);
        warm.addAndGet(t2 - t1);
        cool.addAndGet(t3 - t2);
        blackhole = x;
    }

    static long hotSixty(long iterations) {
        return crunch(iterations, 0x9E3779B97F4A7C15L);
    }

    static long warmThirty(long iterations) {
        return crunch(iterations, 0xC2B2AE3D27D4EB4FL);
    }

    static long coolTen(long iterations) {
        return crunch(iterations, 0x165667B19E3779F9L);
    }

    static long crunch(long iterations, long seed) {
        long x = seed;
        for (long i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        worker.join(5_000);
        idlePool.shutdownNow();
    }
}
