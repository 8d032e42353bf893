package dev.cpuprofiler.internal.cpu;

import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the CPU counter at a fixed interval on a thread of its own and turns the deltas into CPU%:
 * Δcpu / (Δwall × effective CPUs) × 100, clamped to [0, 100].
 *
 * <p>Its own thread, not a shared pool: a pool saturated by the very load being measured would starve
 * the sampler exactly when it matters. A failed read is logged (once per failure streak, with the count
 * when it recovers) and retried on the next tick; nothing thrown by a read or a listener ends the thread.
 *
 * <p>A plain thread that parks until the next deadline, not a {@code ScheduledThreadPoolExecutor}: waking an idle
 * executor's queue once a second costs about three times as much CPU (its lock and condition machinery, run
 * interpreted at that rate) as the whole sample does. The rate is fixed; a deadline missed (a long tick, a
 * suspended machine) is skipped, not made up by a burst of ticks, since each tick measures the whole span since the
 * one before anyway.
 *
 * <p>A calm process ticks less often: after a tick on which it used less than {@link #CALM_SHARE} of one core, the
 * next comes after {@code quietInterval} (unless {@code fullRate} says a recording needs every tick). A thread woken
 * once a second costs 2-5 ms of CPU a minute by the wake-up alone on a small virtual machine (its timer and context
 * switch, cold caches), over an idle application's whole budget. Nothing the profiler decides can change at that
 * level: the lowest level it acts on is one thread at 54% of a core (the look-back's thread level). Every listener
 * measures spans, not ticks, so a longer span changes nothing but how soon a rise is seen (at most
 * {@code quietInterval} later).
 *
 * <p>The listeners judge the application, not the profiler: each tick's CPU less what the profiler itself used over
 * it ({@link OwnCpu}: its threads, and the JIT while it works), never below 0, as a cumulative counter and a percent
 * that agree. Own CPU the counter has not shown yet is taken off the next ticks (up to half a second of it), not
 * dropped: the process's counter moves in 10-ms steps and a compilation's time is told only when it ends, so the own
 * figure runs ahead of the counter by a tick or a few, and dropping what ran ahead would count it as the
 * application's. What a user reads as the process's CPU stays the measured figure: {@link #latestPercent()},
 * {@link #reading()} (a session's average) and the {@linkplain #addMeasuredListener measured listeners} (the status
 * chart's samples). A tick is calm by the application's CPU: the listeners act on nothing else, so the profiler's own
 * work after a session (its parse, the JIT's burst) does not keep an idle application's sampler at full rate for
 * nothing.
 */
public final class CpuSampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CpuSampler.class);

    /**
     * A tick on which the application (the process less the profiler's own CPU) used less than this share of one core
     * is calm: the next comes later.
     */
    public static final double CALM_SHARE = 0.1;

    /**
     * The most own CPU carried to later ticks when it ran ahead of the counter: a few counter steps and a long
     * compilation. Not more: an own figure that overstates (a compilation's time is wall time, longer than its CPU on
     * a starved machine) hides at most this much of the application's CPU after it.
     */
    static final long OWN_AHEAD_LIMIT = 500_000_000L;

    private final CpuUsageSource source;
    private final EffectiveCpuCount cpus;
    private final Duration interval;
    private final Duration quietInterval;
    private final BooleanSupplier fullRate;
    private final LongSupplier ownCpuNanos;
    // Written by the sampling thread's tick, read by its loop.
    private boolean calm;
    private final Ticker ticker;
    private final ThreadFactory threadFactory;
    // Copied on add, read every tick: an array walk, without the iterator a list would make at each tick.
    private volatile CpuSampleListener[] listeners = new CpuSampleListener[0];
    private volatile CpuSampleListener[] measuredListeners = new CpuSampleListener[0];
    private final String sampleLogFormat;

    // Written only by the sampling thread (or a test's thread calling tick()); read by anyone.
    private volatile double latestPercent = Double.NaN;
    private volatile long samples;
    private volatile long failedReads;
    // The latest cumulative reading, for averages over arbitrary spans (e.g. one profiling session).
    private long readingNanoTime;
    private long readingCpuNanos;
    private long readingRawCpu;
    private boolean hasReading;
    // A source reads its counter file into one buffer: the sampling thread's tick and a fresh reading take turns.
    private final Object sourceRead = new Object();
    private long lastRawCpu;
    private long lastWall;
    private long smoothedCpu; // cumulative CPU with counter resets removed
    private long applicationCpu; // the same less the profiler's own CPU, tick by tick
    private long lastOwnCpu;
    private long ownAhead; // own CPU the counter has not shown yet, at most OWN_AHEAD_LIMIT
    private boolean primed;
    private int failureStreak;
    private final DebugLevel debug = new DebugLevel(log);

    // Guarded by this.
    private Thread thread;
    private volatile boolean stopping;

    public CpuSampler(CpuUsageSource source, EffectiveCpuCount cpus, Duration interval, Ticker ticker,
            ThreadFactory threadFactory) {
        this(source, cpus, interval, interval, () -> true, ticker, threadFactory);
    }

    /** A sampler that leaves nothing out: the profiler's own CPU counts as the application's. */
    public CpuSampler(CpuUsageSource source, EffectiveCpuCount cpus, Duration interval, Duration quietInterval,
            BooleanSupplier fullRate, Ticker ticker, ThreadFactory threadFactory) {
        this(source, cpus, interval, quietInterval, fullRate, () -> 0L, ticker, threadFactory);
    }

    /**
     * @param quietInterval the interval after a calm tick (at least {@code interval})
     * @param fullRate asked after a calm tick: true keeps the interval (a recording runs)
     * @param ownCpuNanos the profiler's own CPU so far, cumulative ns ({@link OwnCpu#cpuNanos()}): left out of what
     *        the listeners are told
     */
    public CpuSampler(CpuUsageSource source, EffectiveCpuCount cpus, Duration interval, Duration quietInterval,
            BooleanSupplier fullRate, LongSupplier ownCpuNanos, Ticker ticker, ThreadFactory threadFactory) {
        this.source = Objects.requireNonNull(source, "source");
        this.cpus = Objects.requireNonNull(cpus, "cpus");
        this.interval = Objects.requireNonNull(interval, "interval");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("interval must be positive: " + interval);
        }
        this.quietInterval = Objects.requireNonNull(quietInterval, "quietInterval");
        if (quietInterval.compareTo(interval) < 0) {
            throw new IllegalArgumentException("quietInterval must not be shorter than the interval: " + quietInterval);
        }
        this.fullRate = Objects.requireNonNull(fullRate, "fullRate");
        this.ownCpuNanos = Objects.requireNonNull(ownCpuNanos, "ownCpuNanos");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.sampleLogFormat = source.kind() == CpuSourceKind.PROCESS ? "CPU sample: {}%" : "CPU sample (cgroup): {}%";
    }

    /** Told of every tick's application CPU: the measured CPU less the profiler's own. */
    public synchronized void addListener(CpuSampleListener listener) {
        listeners = with(listeners, listener);
    }

    /** Told of every tick's measured CPU, the profiler's own included (what the status shows), before the others. */
    public synchronized void addMeasuredListener(CpuSampleListener listener) {
        measuredListeners = with(measuredListeners, listener);
    }

    private static CpuSampleListener[] with(CpuSampleListener[] listeners, CpuSampleListener listener) {
        Objects.requireNonNull(listener, "listener");
        CpuSampleListener[] more = Arrays.copyOf(listeners, listeners.length + 1);
        more[more.length - 1] = listener;
        return more;
    }

    /** Starts sampling now and every interval after. */
    public synchronized void start() {
        if (thread != null || stopping) {
            throw new IllegalStateException(stopping ? "closed" : "already started");
        }
        thread = threadFactory.newThread(this::run);
        thread.start();
    }

    /**
     * The sampling thread's loop. Deadlines are on {@link System#nanoTime()}, not the injected ticker: parking waits
     * in real time, and a test's hand-driven ticker would never reach the next deadline.
     */
    private void run() {
        long period = interval.toNanos();
        long quietPeriod = quietInterval.toNanos();
        long next = System.nanoTime();
        while (!stopping) {
            tick();
            next += calm && quietPeriod > period && !fullRate.getAsBoolean() ? quietPeriod : period;
            long late = System.nanoTime() - next;
            if (late >= 0) {
                next += (late / period + 1) * period; // skip the missed deadlines, keep the phase
            }
            long wait;
            while (!stopping && (wait = next - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait); // no blocker: setting and clearing it is a tenth of an idle tick
                // An interrupt would make every park return at once: clear it (close() stops by flag and unpark).
                Thread.interrupted();
            }
        }
    }

    /**
     * Takes one sample now. The sampling thread calls it every interval; tests call it directly.
     * Never throws.
     */
    public void tick() {
        try {
            long raw;
            try {
                synchronized (sourceRead) {
                    raw = source.cpuTimeNanos();
                }
            } catch (Exception | LinkageError e) {
                onReadFailure(e);
                return;
            }
            long now = ticker.nanoTime();
            long own = ownCpu();
            if (failureStreak > 0) {
                log.info("CPU counter {} readable again after {} failed reads", source.description(), failureStreak);
                failureStreak = 0;
            }
            if (!primed) {
                // The first reading is only a starting point: a delta needs two.
                primed = true;
                lastRawCpu = raw;
                lastWall = now;
                lastOwnCpu = Math.max(0, own);
                ownAhead = 0;
                smoothedCpu = 0;
                applicationCpu = 0;
                recordReading(now, 0, raw);
                samples++;
                notifyListeners(measuredListeners, now, smoothedCpu, Double.NaN);
                notifyListeners(listeners, now, applicationCpu, Double.NaN);
                return;
            }
            long cpuDelta = raw - lastRawCpu;
            long wallDelta = now - lastWall;
            lastRawCpu = raw;
            lastWall = now;
            if (cpuDelta < 0) {
                // The counter went backwards: the cgroup was recreated (container restart). The
                // interval's true usage is unknown, so count it as nothing rather than invent a figure.
                log.debug("CPU counter {} went backwards by {} ns; ignoring this interval",
                        source.description(), -cpuDelta);
                cpuDelta = 0;
            }
            // A failed own read (-1) counts as nothing this tick; what it missed comes off the next one.
            long ownDelta = own < 0 ? 0 : Math.max(0, own - lastOwnCpu);
            if (own >= 0) {
                lastOwnCpu = Math.max(lastOwnCpu, own);
            }
            long applicationDelta = cpuDelta - ownDelta;
            if (applicationDelta < 0) {
                ownAhead = Math.min(OWN_AHEAD_LIMIT, ownAhead - applicationDelta);
                applicationDelta = 0;
            } else {
                long caughtUp = Math.min(ownAhead, applicationDelta);
                ownAhead -= caughtUp;
                applicationDelta -= caughtUp;
            }
            double percent = percent(cpuDelta, wallDelta, cpus.count());
            double applicationPercent = percent(applicationDelta, wallDelta, cpus.count());
            calm = wallDelta > 0 && applicationDelta < CALM_SHARE * wallDelta;
            smoothedCpu += cpuDelta;
            applicationCpu += applicationDelta;
            recordReading(now, smoothedCpu, raw);
            latestPercent = percent;
            samples++;
            if (debug.on()) {
                log.debug(sampleLogFormat, String.format("%.1f", percent) + (ownDelta == 0 ? ""
                        : String.format(" (the profiler's own %.1f%%)", percent(ownDelta, wallDelta, cpus.count()))));
            }
            notifyListeners(measuredListeners, now, smoothedCpu, percent);
            notifyListeners(listeners, now, applicationCpu, applicationPercent);
        } catch (Throwable t) {
            // A listener bug must not stop the sampler; log it and go on next tick.
            log.warn("CPU sampler tick failed; sampling continues", t);
        }
    }

    private synchronized void recordReading(long nanoTime, long cpuNanos, long rawCpu) {
        readingNanoTime = nanoTime;
        readingCpuNanos = cpuNanos;
        readingRawCpu = rawCpu;
        hasReading = true;
    }

    /**
     * The cumulative reading now, as {@code {nanoTime, cpuNanos}} (counter resets smoothed out), or null before the
     * first sample. Two readings give the average CPU% between them. Read from the counter at the call, not at the last
     * tick: a calm process is sampled only every quiet interval, so a session that starts on one would otherwise count
     * seconds from before it. The last tick's reading when the counter cannot be read or went backwards.
     */
    public long[] reading() {
        long wall;
        long cpu;
        long raw;
        synchronized (this) {
            if (!hasReading) {
                return null;
            }
            wall = readingNanoTime;
            cpu = readingCpuNanos;
            raw = readingRawCpu;
        }
        try {
            long rawNow;
            long now;
            synchronized (sourceRead) {
                rawNow = source.cpuTimeNanos();
                now = ticker.nanoTime();
            }
            long delta = rawNow - raw;
            return delta >= 0 && now >= wall ? new long[] {now, cpu + delta} : new long[] {wall, cpu};
        } catch (Exception | LinkageError e) {
            return new long[] {wall, cpu};
        }
    }

    /** Average CPU% between an earlier {@link #reading()} and now; null if unknown. */
    public Double percentSince(long[] earlier) {
        long[] now = reading();
        if (earlier == null || now == null || now[0] <= earlier[0]) {
            return null;
        }
        return percent(now[1] - earlier[1], now[0] - earlier[0], cpus.count());
    }

    /** CPU% over one interval, clamped to [0, 100]; 0 when no wall time passed. */
    static double percent(long cpuDeltaNanos, long wallDeltaNanos, double effectiveCpus) {
        if (wallDeltaNanos <= 0 || cpuDeltaNanos <= 0) {
            return 0;
        }
        double p = cpuDeltaNanos / (wallDeltaNanos * effectiveCpus) * 100.0;
        return Math.min(100.0, Math.max(0.0, p));
    }

    private void onReadFailure(Throwable e) {
        failedReads++;
        failureStreak++;
        if (failureStreak == 1) {
            log.warn("Cannot read CPU counter {}: {}; retrying every {}", source.description(), e.toString(), interval);
        } else if (log.isDebugEnabled()) {
            log.debug("CPU counter {} still unreadable ({} failures in a row): {}", source.description(), failureStreak,
                    e.toString());
        }
    }

    /** The profiler's own CPU so far, or -1 when it cannot be read: this tick then leaves nothing out. */
    private long ownCpu() {
        try {
            return ownCpuNanos.getAsLong();
        } catch (RuntimeException e) {
            log.debug("Cannot read the profiler's own CPU: {}", e.toString());
            return -1;
        }
    }

    private static void notifyListeners(CpuSampleListener[] listeners, long now, long cpu, double percent) {
        for (CpuSampleListener listener : listeners) {
            try {
                listener.onSample(now, cpu, percent);
            } catch (RuntimeException e) {
                log.warn("CPU sample listener {} failed", listener, e);
            }
        }
    }

    /** CPU% of the last interval, or NaN before two samples were taken. */
    public double latestPercent() {
        return latestPercent;
    }

    /** Successful samples taken so far. */
    public long samples() {
        return samples;
    }

    /** Reads that failed so far. */
    public long failedReads() {
        return failedReads;
    }

    public CpuUsageSource source() {
        return source;
    }

    public EffectiveCpuCount effectiveCpus() {
        return cpus;
    }

    public Duration interval() {
        return interval;
    }

    /** Stops the sampling thread (at once when it is waiting, after its tick otherwise) and waits briefly for it. */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            stopping = true;
            t = thread;
        }
        if (t != null && t != Thread.currentThread()) {
            LockSupport.unpark(t);
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
                if (t.isAlive()) {
                    log.warn("CPU sampler thread did not stop within 5 s");
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
        source.close();
    }
}
