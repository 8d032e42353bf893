package dev.cpuprofiler.internal.lookback;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * Ticks a recorder on a thread of its own, as the CPU sampler's tick does in production: for tests and measurements
 * that run a recorder without a sampler.
 */
final class LookbackTicks implements AutoCloseable {

    private final ScheduledExecutorService ticker;

    private LookbackTicks(ScheduledExecutorService ticker) {
        this.ticker = ticker;
    }

    /** Ticks {@code recorder} every {@code period}, the first time one period from now. */
    static LookbackTicks every(LookbackRecorder recorder, Duration period, ThreadFactory threads) {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(threads);
        ticker.scheduleWithFixedDelay(recorder::tick, period.toNanos(), period.toNanos(), TimeUnit.NANOSECONDS);
        return new LookbackTicks(ticker);
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
