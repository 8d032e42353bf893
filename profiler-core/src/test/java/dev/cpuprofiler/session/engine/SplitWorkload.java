package dev.cpuprofiler.session.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One thread that splits its CPU time 60/30/10 across {@code hotSixty}, {@code warmThirty} and {@code coolTen}, next
 * to a pool of parked idle threads. The split is made of CPU work (the same arithmetic kernel, calibrated to about
 * 10 ms per unit, 6/3/1 units per round) and measured with the thread's own CPU clock around each call, so the
 * truth is known for exactly the window a recording covers. Rounds last about 100 ms: short next to a recording of
 * seconds (a partial round at either end moves a share by at most ~2 points), long next to the 10 ms sampling
 * period (each phase spans several periods, so samples stratify instead of landing at random).
 */
final class SplitWorkload implements AutoCloseable {

    static final String WORKER = "split-worker";
    static final String IDLE_PREFIX = "idle-pool-";
    static final int IDLE_THREADS = 4;
    private static final long UNIT_NANOS = 10_000_000L;

    /** CPU nanoseconds the worker spent in each method so far. */
    record CpuSplit(long hot, long warm, long cool) {

        CpuSplit minus(CpuSplit earlier) {
            return new CpuSplit(hot - earlier.hot, warm - earlier.warm, cool - earlier.cool);
        }

        double percent(long part) {
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
    private volatile boolean running = true;
    private volatile long unit = 100_000;
    private volatile long blackhole;

    SplitWorkload() {
        AtomicInteger n = new AtomicInteger();
        idlePool = new ThreadPoolExecutor(IDLE_THREADS, IDLE_THREADS, 1, TimeUnit.HOURS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, IDLE_PREFIX + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        idlePool.prestartAllCoreThreads(); // parked in queue.take() from now on
        worker = new Thread(this::run, WORKER);
        worker.setDaemon(true);
    }

    /** Starts the worker and returns once it is compiled and calibrated. */
    SplitWorkload start() throws InterruptedException {
        worker.start();
        if (!ready.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("workload did not warm up");
        }
        return this;
    }

    CpuSplit snapshot() {
        return new CpuSplit(hot.get(), warm.get(), cool.get());
    }

    ExecutorService idlePool() {
        return idlePool;
    }

    private void run() {
        // Warm-up: real rounds until the JIT has compiled them; each round re-sizes the unit to ~10 ms of CPU.
        long warmupEnd = threads.getCurrentThreadCpuTime() + 1_500_000_000L;
        while (threads.getCurrentThreadCpuTime() < warmupEnd) {
            long before = total();
            round();
            long spent = Math.max(1, total() - before); // CPU time of 10 units
            unit = Math.max(1_000, (long) ((double) unit * 10 * UNIT_NANOS / spent));
        }
        hot.set(0);
        warm.set(0);
        cool.set(0);
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

    // xorshift: pure arithmetic on registers, no memory, no allocation, nothing the JIT can fold away.
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
