package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.ConcurrencyReport;

import dev.cpuprofiler.internal.cpu.EffectiveCpuCount;
import dev.cpuprofiler.internal.cpu.Ticker;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * During a profile, reads thread CPU time at a fine tick (10 ms) on a thread of its own and estimates how many
 * threads ran at once ({@link ConcurrencyReport}). {@link #start()} at the start of a profiling session,
 * {@link #stop()} at its end; one session at a time, and the sampler can be started again afterwards.
 *
 * <p>Its own thread is left out of the counts (it is the measurement, not the workload). Threads the tracker sees
 * as active are read every tick from the start, the rest at back-off (see {@link ConcurrencyRun}).
 */
public final class ConcurrencySampler {

    private static final Logger log = LoggerFactory.getLogger(ConcurrencySampler.class);
    private static final long STOP_TIMEOUT_SECONDS = 5;

    private final ThreadCpuReader reader;
    private final ThreadCpuTracker tracker;
    private final EffectiveCpuCount cpus;
    private final Ticker ticker;
    private final ThreadFactory threadFactory;

    private Running running; // guarded by this

    /** @param tracker the 1 s tracker, for which threads are active now and for names; may be null */
    public ConcurrencySampler(ThreadCpuReader reader, ThreadCpuTracker tracker, EffectiveCpuCount cpus, Ticker ticker,
            ThreadFactory threadFactory) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.tracker = tracker;
        this.cpus = Objects.requireNonNull(cpus, "cpus");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
    }

    /**
     * Starts sampling on a new thread. Does nothing (and {@link #stop()} returns empty) if thread CPU time cannot
     * be read here.
     *
     * @throws IllegalStateException if already started
     */
    public synchronized void start() {
        if (running != null) {
            throw new IllegalStateException("concurrency sampling already running");
        }
        running = new Running();
        if (!reader.available()) {
            running.result.complete(Optional.empty());
            return;
        }
        Thread thread = threadFactory.newThread(running::loop);
        running.thread = thread;
        thread.start();
    }

    /** Whether a session is being sampled. */
    public synchronized boolean isRunning() {
        return running != null;
    }

    /**
     * Stops sampling and returns what it measured; empty if not started, if thread CPU time cannot be read, if it
     * ran for less than two ticks, or if the sampling thread failed or did not stop within 5 s.
     */
    public Optional<ConcurrencyReport> stop() {
        Running r;
        synchronized (this) {
            r = running;
            running = null;
        }
        if (r == null) {
            return Optional.empty();
        }
        r.stopping = true;
        if (r.thread != null) {
            LockSupport.unpark(r.thread);
        }
        try {
            return r.result.get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("Concurrency sampling did not finish cleanly: {}", e.toString());
            return Optional.empty();
        }
    }

    /**
     * How many threads can run at once: the CPUs the JVM sees (its cpuset), or more if the effective count says so.
     * A CPU quota does not lower it: within a 10 ms tick a quota-limited process may still run on every CPU of its
     * cpuset.
     */
    private int parallelism() {
        return Math.max(Runtime.getRuntime().availableProcessors(), (int) Math.ceil(cpus.count()));
    }

    /** One session: the loop on the sampling thread, and where its report lands. */
    private final class Running {
        final CompletableFuture<Optional<ConcurrencyReport>> result = new CompletableFuture<>();
        volatile boolean stopping;
        volatile Thread thread;

        void loop() {
            try {
                long self = Thread.currentThread().getId();
                long[] active = tracker == null ? new long[0] : tracker.activeThreadIds();
                LongFunction<String> names = tracker == null ? id -> null : tracker::name;
                ConcurrencyRun run = new ConcurrencyRun(reader, ConcurrencyRun.Tuning.DEFAULT, ticker, active,
                        id -> id == self, names, parallelism());
                long period = ConcurrencyRun.Tuning.DEFAULT.tick().toNanos();
                run.begin();
                long next = ticker.nanoTime() + period;
                int failures = 0;
                while (!stopping) {
                    long wait = next - ticker.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                        continue; // re-check: woken early by stop() or spuriously
                    }
                    next += period;
                    long now = ticker.nanoTime();
                    if (next <= now) {
                        next = now + period; // behind by a tick or more (a stalled machine): skip, do not burst
                    }
                    try {
                        run.tick();
                    } catch (RuntimeException e) {
                        if (failures++ == 0) {
                            log.warn("Concurrency sampling tick failed; going on", e);
                        }
                    }
                }
                run.finalTick();
                if (log.isDebugEnabled()) {
                    log.debug("Concurrency sampling: {} ticks, {} thread CPU reads", run.ticks(), run.reads());
                }
                result.complete(run.ticks() < 2 ? Optional.empty() : Optional.of(run.report(cpus.count())));
            } catch (Throwable t) {
                log.warn("Concurrency sampling failed", t);
                result.complete(Optional.empty());
            }
        }
    }
}
