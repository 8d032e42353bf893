package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.threads.ManagementThreadCpuReader;
import dev.cpuprofiler.internal.threads.ThreadCpuReader;
import dev.cpuprofiler.internal.threads.ThreadCpuTracker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One tick of per-thread CPU tracking ({@link ThreadCpuTracker#onSample}, what the product runs on every sampler
 * tick, the saturation trigger's pass over the active threads included) in a JVM with {@code threads} threads of its
 * own (500 or 2,000) besides JMH's and the JVM's: {@value #BUSY} busy, the rest parked, read through the real {@link ManagementThreadCpuReader} (bulk {@code getThreadCpuTime}, and
 * {@code getAllThreadIds()} to list the threads, every tick as the product does).
 *
 * <ul>
 * <li>{@code backOff=product}: the default options' tracker, as the starter builds it: idle threads are read at
 * 1, 2, 4, ... ticks up to every 32nd, so the steady state reads the busy threads plus about 1/32 of the
 * parked ones per tick.</li>
 * <li>{@code backOff=off}: the same with a back-off cap of 1 tick: every thread read every tick (what tracking would
 * cost without the back-off).</li>
 * </ul>
 *
 * <p>Time scale. The product ticks once a second; JMH ticks back to back, tens of µs apart. The tracker is given a
 * clock that advances 1 s per tick, so its histories and windows hold what they hold in production (about ten reads
 * per busy thread), and the busy threads are credited one second of CPU per tick on top of what the real read
 * returns, so they count as busy exactly as a CPU-bound thread does at a 1 s tick (in a few µs of wall time a
 * spinning thread that the scheduler has just set aside shows no CPU, and would back off like an idle one). Every
 * read is still the real read of a real thread: the busy ones really spin, so reading their clock takes the path of
 * a thread on a CPU. They spin at nice 19 (set per thread with {@code renice}; where it fails they spin at normal
 * priority and the log says so), so on a small machine they take idle CPU only, not the CPU of the thread that
 * ticks.
 *
 * <p>The {@code reads} and {@code ticks} counters give the thread CPU times read per tick ({@code reads / ticks}).
 * Score: µs per tick; at one tick a second, {@code score / 10^4} is the % of one core.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ThreadTrackingBenchmark {

    /** Busy threads among the ones this benchmark starts; the rest park. */
    public static final int BUSY = 4;
    /** The product's sampler interval: the tracker's clock advances this much per tick. */
    static final long TICK_NANOS = 1_000_000_000L;
    /** Ticks before measuring: the back-off reaches its cap (32) after 63 ticks; three rounds of it more. */
    static final int SETTLE_TICKS = 200;

    /** {@code product}: the default back-off (cap 32 ticks); {@code off}: every thread every tick. */
    @Param({"product", "off"})
    public String backOff;

    /** Threads this benchmark starts: {@value #BUSY} busy, the rest parked. */
    @Param({"500", "2000"})
    public int threads;

    private final List<Thread> started = new ArrayList<>();
    private volatile boolean running;
    private volatile long sink;
    private long now;
    private CreditingReader reader;
    private ThreadCpuTracker tracker;

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        running = true;
        CountDownLatch started = new CountDownLatch(threads);
        long[] busyIds = new long[BUSY];
        AtomicInteger reniced = new AtomicInteger();
        for (int i = 0; i < BUSY; i++) {
            busyIds[i] = thread("bench-busy-" + i, () -> {
                if (lowestPriority()) {
                    reniced.incrementAndGet();
                }
                started.countDown();
                spin();
            }).getId();
        }
        for (int i = 0; i < threads - BUSY; i++) {
            thread("bench-parked-" + i, () -> {
                started.countDown();
                while (running) {
                    LockSupport.park(this);
                }
            });
        }
        if (!started.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the " + threads + " threads did not start within 60 s");
        }
        if (reniced.get() < BUSY) {
            System.out.println("[ThreadTrackingBenchmark] " + (BUSY - reniced.get()) + " of " + BUSY + " busy threads "
                    + "could not be set to nice 19: they compete with the ticking thread for CPU");
        }

        int maxBackOffTicks = switch (backOff) {
            case "product" -> ThreadCpuTracker.MAX_BACK_OFF_TICKS;
            case "off" -> 1;
            default -> throw new IllegalArgumentException("backOff=" + backOff);
        };
        now = System.nanoTime();
        reader = new CreditingReader(new ManagementThreadCpuReader(), busyIds, () -> now);
        if (!reader.available()) {
            throw new IllegalStateException("this JVM cannot read per-thread CPU time");
        }
        tracker = new ThreadCpuTracker(reader, new CpuProfilerOptions(), maxBackOffTicks);
        for (int i = 0; i < SETTLE_TICKS; i++) {
            tick();
        }
        if (tracker.trackedThreads() < threads) {
            throw new IllegalStateException("tracking " + tracker.trackedThreads() + " threads, expected at least "
                    + threads);
        }
        if (tracker.saturation().isEmpty()) {
            throw new IllegalStateException("the saturation pass saw no busy thread: " + tracker);
        }
        long[] active = tracker.activeThreadIds();
        for (long id : busyIds) {
            if (Arrays.stream(active).noneMatch(a -> a == id)) {
                throw new IllegalStateException("busy thread " + id + " is not tracked as busy: " + tracker);
            }
        }
    }

    /** Counters of one iteration: thread CPU times read, and ticks; reads per tick = reads / ticks. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Reads {
        public long reads;
        public long ticks;

        @Setup(Level.Iteration)
        public void reset() {
            reads = 0;
            ticks = 0;
        }
    }

    @Benchmark
    public void tick(Reads counters) {
        tick();
        counters.ticks++;
        counters.reads += reader.lastReads;
    }

    private void tick() {
        now += TICK_NANOS;
        tracker.onSample(now, 0, Double.NaN);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        running = false;
        for (Thread t : started) {
            LockSupport.unpark(t);
        }
        for (Thread t : started) {
            t.join(5000);
        }
        started.clear();
    }

    private Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        this.started.add(t);
        t.start();
        return t;
    }

    private void spin() {
        long x = Thread.currentThread().getId() | 1;
        while (running) {
            for (int i = 0; i < 10_000; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            sink = x;
        }
    }

    /** Sets the calling thread to nice 19 ({@code renice} on its Linux thread id); false if that failed. */
    private boolean lowestPriority() {
        try {
            String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString(); // "<pid>/task/<tid>"
            String tid = self.substring(self.lastIndexOf('/') + 1);
            Process p = new ProcessBuilder("renice", "-n", "19", "-p", tid).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (Exception e) {
            return false; // left at normal priority; setUp reports it
        }
    }

    /**
     * The real reader; the busy threads' CPU times are raised by the tracker's clock, so that between two reads a
     * busy thread shows at least as much CPU as wall time passed on that clock (busy at the 1 s tick).
     */
    static final class CreditingReader implements ThreadCpuReader {
        private final ThreadCpuReader real;
        private final long[] busy;
        private final long busyLow;
        private final long busyHigh;
        private final LongSupplier clock;
        private final long origin;
        /** Thread CPU times the last {@link #cpuTimes} call read. */
        long lastReads;

        CreditingReader(ThreadCpuReader real, long[] busy, LongSupplier clock) {
            this.real = real;
            this.busy = busy.clone();
            this.busyLow = Arrays.stream(busy).min().orElse(0);
            this.busyHigh = Arrays.stream(busy).max().orElse(-1);
            this.clock = clock;
            this.origin = clock.getAsLong();
        }

        @Override
        public boolean available() {
            return real.available();
        }

        @Override
        public long[] threadIds() {
            return real.threadIds();
        }

        @Override
        public long[] cpuTimes(long[] ids) {
            long[] cpu = real.cpuTimes(ids);
            lastReads = ids.length;
            long credit = clock.getAsLong() - origin;
            for (int i = 0; i < ids.length; i++) {
                long id = ids[i];
                if (id >= busyLow && id <= busyHigh && cpu[i] >= 0 && isBusy(id)) { // one range check per read
                    cpu[i] += credit;
                }
            }
            return cpu;
        }

        private boolean isBusy(long id) {
            for (long b : busy) {
                if (b == id) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public String[] names(long[] ids) {
            return real.names(ids);
        }
    }
}
