package dev.cpuprofiler.cpu;

import dev.cpuprofiler.core.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the CPU counter at a fixed interval on a thread of its own and turns the deltas into CPU%:
 * Δcpu / (Δwall × effective CPUs) × 100, clamped to [0, 100].
 *
 * <p>Its own thread, not a shared pool: a pool saturated by the very load being measured would starve
 * the sampler exactly when it matters. A failed read is logged (once per failure streak, with the count
 * when it recovers) and retried on the next tick; nothing thrown by a read or a listener ends the thread.
 */
public final class CpuSampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CpuSampler.class);

    private final CpuUsageSource source;
    private final EffectiveCpuCount cpus;
    private final Duration interval;
    private final Ticker ticker;
    private final ThreadFactory threadFactory;
    private final List<CpuSampleListener> listeners = new CopyOnWriteArrayList<>();
    private final String sampleLogFormat;

    // Written only by the sampling thread (or a test's thread calling tick()); read by anyone.
    private volatile double latestPercent = Double.NaN;
    private volatile long samples;
    private volatile long failedReads;
    // The latest cumulative reading, for averages over arbitrary spans (e.g. one profiling session).
    private long readingNanoTime;
    private long readingCpuNanos;
    private boolean hasReading;
    private long lastRawCpu;
    private long lastWall;
    private long smoothedCpu; // cumulative CPU with counter resets removed
    private boolean primed;
    private int failureStreak;

    private ScheduledExecutorService executor;

    public CpuSampler(CpuUsageSource source, EffectiveCpuCount cpus, Duration interval, Ticker ticker,
            ThreadFactory threadFactory) {
        this.source = Objects.requireNonNull(source, "source");
        this.cpus = Objects.requireNonNull(cpus, "cpus");
        this.interval = Objects.requireNonNull(interval, "interval");
        if (interval.isZero() || interval.isNegative()) {
            throw new IllegalArgumentException("interval must be positive: " + interval);
        }
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.sampleLogFormat = source.kind() == CpuSourceKind.PROCESS ? "CPU sample: {}%" : "CPU sample (cgroup): {}%";
    }

    public void addListener(CpuSampleListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Starts sampling now and every interval after. */
    public synchronized void start() {
        if (executor != null) {
            throw new IllegalStateException("already started");
        }
        executor = Executors.newSingleThreadScheduledExecutor(threadFactory);
        long periodNanos = interval.toNanos();
        executor.scheduleAtFixedRate(this::tick, 0, periodNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * Takes one sample now. The sampling thread calls it every interval; tests call it directly.
     * Never throws.
     */
    public void tick() {
        try {
            long raw;
            try {
                raw = source.cpuTimeNanos();
            } catch (Exception | LinkageError e) {
                onReadFailure(e);
                return;
            }
            long now = ticker.nanoTime();
            if (failureStreak > 0) {
                log.info("CPU counter {} readable again after {} failed reads", source.description(), failureStreak);
                failureStreak = 0;
            }
            if (!primed) {
                // The first reading is only a starting point: a delta needs two.
                primed = true;
                lastRawCpu = raw;
                lastWall = now;
                smoothedCpu = 0;
                recordReading(now, 0);
                samples++;
                notifyListeners(now, smoothedCpu, Double.NaN);
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
            double percent = percent(cpuDelta, wallDelta, cpus.count());
            smoothedCpu += cpuDelta;
            recordReading(now, smoothedCpu);
            latestPercent = percent;
            samples++;
            if (log.isDebugEnabled()) {
                log.debug(sampleLogFormat, String.format("%.1f", percent));
            }
            notifyListeners(now, smoothedCpu, percent);
        } catch (Throwable t) {
            // A listener bug must not stop the sampler; log it and go on next tick.
            log.warn("CPU sampler tick failed; sampling continues", t);
        }
    }

    private synchronized void recordReading(long nanoTime, long cpuNanos) {
        readingNanoTime = nanoTime;
        readingCpuNanos = cpuNanos;
        hasReading = true;
    }

    /**
     * The latest cumulative reading as {@code {nanoTime, cpuNanos}} (counter resets smoothed out), or
     * null before the first sample. Two readings give the average CPU% between them.
     */
    public synchronized long[] reading() {
        return hasReading ? new long[] {readingNanoTime, readingCpuNanos} : null;
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

    private void notifyListeners(long now, long cpu, double percent) {
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

    /** Stops the sampling thread and waits briefly for it to end. */
    @Override
    public void close() {
        ScheduledExecutorService e;
        synchronized (this) {
            e = executor;
            executor = null;
        }
        if (e != null) {
            e.shutdownNow();
            try {
                if (!e.awaitTermination(5, TimeUnit.SECONDS)) {
                    log.warn("CPU sampler thread did not stop within 5 s");
                }
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
        source.close();
    }
}
