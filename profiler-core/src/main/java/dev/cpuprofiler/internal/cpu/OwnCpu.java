package dev.cpuprofiler.internal.cpu;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * The CPU the profiler itself used, cumulative: what its own threads burnt, plus the JIT's compilation time while the
 * profiler works (the compiler threads are invisible to {@code ThreadMXBean}, and a session's launch and parse make
 * them compile the profiler's code). The sampler subtracts it so that the trigger, the look-back's arming and the
 * reference's calm rule judge the application alone.
 *
 * <p>Threads: every thread made through {@link #accountable} registers itself when it starts and, as it ends, moves its
 * final CPU time to a finished total; live ones are read at each {@link #cpuNanos()}. One lock orders both, so a
 * thread is counted exactly once, as live or as finished.
 *
 * <p>The JIT: from the first {@link #beginWork()} until the last matching {@link #endWork()} and a settle after it,
 * the JIT's compilation time counts as the profiler's. The window closes at the first reading at or after the settle
 * ends, so the JIT up to that reading counts too (the sampler keeps its full rate meanwhile: one tick at most).
 */
public final class OwnCpu {

    /**
     * How long after the profiler's work ends the JIT's time still counts as its own: the compilation burst after a
     * profile is over within about a second and a half on an idle application (README). Two seconds (and up to a tick
     * more: the window closes at the first reading after it) cover the burst while hiding little of the
     * application's own JIT.
     */
    public static final Duration JIT_SETTLE = Duration.ofSeconds(2);

    private final UnaryOperator<long[]> threadCpuTimes;
    private final LongSupplier compilationMillis;
    private final Ticker ticker;
    private final long settleNanos;

    // Guarded by this. The live accountable threads and the highest CPU time read for each (a read that fails, -1,
    // keeps the last one), in the first count slots.
    private long[] liveIds = new long[8];
    private long[] liveCpu = new long[8];
    private int live;
    // The live ids as the reader is asked for them, kept while no thread starts or ends: a tick makes no copy.
    private long[] asked;
    private long finishedNanos;
    // Guarded by this. The JIT window: sessions working now, whether it is open, the JIT's time when it opened, when
    // its settle ends (ticker nanos), and the JIT milliseconds of the windows already closed.
    private int working;
    private boolean windowOpen;
    private long windowStartMillis;
    private long settleEndNanos;
    private long closedJitMillis;
    private long lastJitMillis;

    /**
     * @param threadCpuTimes each thread's cumulative CPU time in ns, in the order asked, -1 for one it cannot read (the
     *        tracker's {@code ThreadCpuReader::cpuTimes}); null where the JVM cannot tell, and no thread is counted
     * @param compilationMillis the JIT's cumulative compilation time in ms, or null where the JVM cannot tell
     * @param ticker the time the settle is measured on
     * @param settle how long after the last work ends the JIT still counts as the profiler's
     */
    public OwnCpu(UnaryOperator<long[]> threadCpuTimes, LongSupplier compilationMillis, Ticker ticker,
            Duration settle) {
        this.threadCpuTimes = threadCpuTimes;
        this.compilationMillis = compilationMillis;
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.settleNanos = Objects.requireNonNull(settle, "settle").toNanos();
    }

    /** This JVM's JIT compilation time in ms, or null where it has no JIT or does not monitor its time. */
    public static LongSupplier jvmCompilationMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit::getTotalCompilationTime : null;
    }

    /** Makes the factory's threads accountable: each counts as the profiler's from its start to its end. */
    public ThreadFactory accountable(ThreadFactory factory) {
        Objects.requireNonNull(factory, "factory");
        return r -> {
            Objects.requireNonNull(r, "runnable");
            return factory.newThread(() -> runAccounted(r));
        };
    }

    private void runAccounted(Runnable r) {
        long id = Thread.currentThread().getId();
        register(id);
        try {
            r.run();
        } finally {
            unregister(id);
        }
    }

    private synchronized void register(long id) {
        if (threadCpuTimes == null) {
            return;
        }
        if (live == liveIds.length) {
            liveIds = Arrays.copyOf(liveIds, live * 2);
            liveCpu = Arrays.copyOf(liveCpu, live * 2);
        }
        liveIds[live] = id;
        liveCpu[live] = 0;
        live++;
        asked = null;
    }

    /** On the ending thread itself: its final CPU time moves to the finished total. */
    private synchronized void unregister(long id) {
        for (int i = 0; i < live; i++) {
            if (liveIds[i] == id) {
                finishedNanos += Math.max(liveCpu[i], finalCpu(id));
                live--;
                liveIds[i] = liveIds[live];
                liveCpu[i] = liveCpu[live];
                asked = null;
                return;
            }
        }
    }

    /** The ending thread's CPU time, or -1: a reader that fails must not replace what the thread itself threw. */
    private long finalCpu(long id) {
        try {
            long[] cpu = threadCpuTimes.apply(new long[] {id});
            return cpu != null && cpu.length > 0 ? cpu[0] : -1;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** A session starts launching: the JIT's time counts as the profiler's from now until it ends and settles. */
    public synchronized void beginWork() {
        working++;
        if (!windowOpen) {
            windowOpen = true;
            windowStartMillis = jitMillis();
        }
    }

    /** A session has ended (stored, failed or never started): the settle starts once no other one works. */
    public synchronized void endWork() {
        if (working > 0 && --working == 0) {
            settleEndNanos = ticker.nanoTime() + settleNanos;
        }
    }

    /** Whether the JIT's time counts as the profiler's now (work under way, or its settle not yet read past). */
    public synchronized boolean working() {
        return windowOpen;
    }

    /**
     * The profiler's own CPU so far, in ns: its threads' (ended and live) plus the JIT's inside its work windows. Never
     * goes backwards.
     */
    public synchronized long cpuNanos() {
        long total = finishedNanos;
        if (live > 0) {
            if (asked == null) {
                asked = Arrays.copyOf(liveIds, live);
            }
            long[] now = threadCpuTimes.apply(asked);
            for (int i = 0; i < live && i < now.length; i++) {
                liveCpu[i] = Math.max(liveCpu[i], now[i]);
                total += liveCpu[i];
            }
        }
        return total + ownJitMillis() * 1_000_000L;
    }

    /** The JIT's milliseconds inside the work windows; closes the open one when its settle has passed. */
    private long ownJitMillis() {
        if (!windowOpen) {
            return closedJitMillis;
        }
        long inWindow = Math.max(0, jitMillis() - windowStartMillis);
        if (working == 0 && ticker.nanoTime() - settleEndNanos >= 0) {
            windowOpen = false;
            closedJitMillis += inWindow;
            return closedJitMillis;
        }
        return closedJitMillis + inWindow;
    }

    /** The JIT's time so far; a failed read (negative) repeats the last one, so a window never counts it as a jump. */
    private long jitMillis() {
        if (compilationMillis != null) {
            lastJitMillis = Math.max(lastJitMillis, compilationMillis.getAsLong());
        }
        return lastJitMillis;
    }
}
