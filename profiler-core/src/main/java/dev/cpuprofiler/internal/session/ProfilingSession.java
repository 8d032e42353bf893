package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.ConcurrencyReport;
import dev.cpuprofiler.CpuBreakdown;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.JfrWaitRecording;
import dev.cpuprofiler.internal.engine.SelectedRecording;
import dev.cpuprofiler.internal.requests.EndpointTally;
import dev.cpuprofiler.internal.requests.RequestLog;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import dev.cpuprofiler.internal.requests.WaitTally;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.threads.ConcurrencySampler;
import dev.cpuprofiler.internal.threads.CpuBreakdownProbe;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One recording: waits out its duration on its own thread, stops the engine and what measured beside it, has its
 * {@link ProfileAssembly} make the profile and hands it to the store. Its outcome always completes — normally, on
 * failure, on cancel, or if the thread dies of an {@link Error} — so the trigger policy never waits forever.
 */
final class ProfilingSession implements RunningSession, Runnable {

    private static final Logger log = LoggerFactory.getLogger(ProfilingSession.class);
    // How often a running recording is asked whether it must stop early (its disk is filling).
    private static final Duration HEALTH_CHECK = Duration.ofSeconds(1);

    private final String id;
    private final SessionTrigger trigger;
    private final SelectedRecording recording;
    private final StackTree tree;
    private final Instant startedAt;
    private final Duration duration;
    private final ProfileStore store;
    private final Clock clock;
    private final Supplier<Double> cpuPercentSince;
    private final ConcurrencySampler concurrency;
    private final CpuBreakdownProbe.Measurement breakdown;
    private final SessionRequests requests;
    private final ProfileAssembly assembly;
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private final CompletableFuture<SessionOutcome> outcome = new CompletableFuture<>();
    private volatile String cancelReason;
    private volatile String stopEarlyReason;

    /** @param assembly what makes the profile of {@code tree} and the rest once the engine stopped */
    ProfilingSession(String id, SessionTrigger trigger, SelectedRecording recording, StackTree tree, Instant startedAt,
            Duration duration, ProfileStore store, Clock clock, Supplier<Double> cpuPercentSince,
            ConcurrencySampler concurrency, CpuBreakdownProbe.Measurement breakdown, SessionRequests requests,
            ProfileAssembly assembly) {
        this.id = id;
        this.trigger = trigger;
        this.recording = recording;
        this.tree = tree;
        this.startedAt = startedAt;
        this.duration = duration;
        this.store = store;
        this.clock = clock;
        this.cpuPercentSince = cpuPercentSince;
        this.concurrency = concurrency;
        this.breakdown = breakdown;
        this.requests = requests;
        this.assembly = assembly;
    }

    @Override
    public void run() {
        try {
            String earlyStop = null;
            String cutShort = null;
            boolean cancelled = false;
            long deadline = System.nanoTime() + duration.toNanos();
            for (long left = duration.toNanos(); left > 0; left = deadline - System.nanoTime()) {
                if (stopSignal.await(Math.min(left, HEALTH_CHECK.toNanos()), TimeUnit.NANOSECONDS)) {
                    cancelled = cancelReason != null;
                    cutShort = stopEarlyReason;
                    break;
                }
                earlyStop = stopReason();
                if (earlyStop != null) {
                    break;
                }
            }
            if (cancelled) {
                requests.close();
                stopConcurrency();
                recording.cancel();
                finish(SessionOutcome.failed("cancelled: " + cancelReason, clock.instant()));
                return;
            }
            // The recording ends when stop() is called; reading it back afterwards adds no samples.
            Instant endedAt = clock.instant();
            Double cpuPercent = cpuPercentSince.get();
            // Before the engine stops: a thread that ends before the second snapshot loses its share.
            CpuBreakdown cpuBreakdown = breakdown == null ? null : breakdown.finish().orElse(null);
            ConcurrencyReport report = stopConcurrency();
            RequestLog requestLog = requests.stop();
            log.debug("Profile {}: the request log holds {}", id, requestLog);
            WaitTally waits = requests.stopWaits(requestLog);
            EngineRecording.Result result = recording.stop();
            requests.close();
            Profile profile = assembly.assemble(endedAt, new Profile.CpuUse(cpuPercent, report, cpuBreakdown),
                    requestLog, waits, result, earlyStop, cutShort);
            store.add(profile);
            assembly.logRecorded(profile);
            finish(new SessionOutcome(SessionOutcome.Status.COMPLETED, cutShort, clock.instant(), id));
        } catch (InterruptedException e) {
            requests.close();
            stopConcurrency();
            recording.cancel();
            finish(SessionOutcome.failed("interrupted", clock.instant()));
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            log.warn("Profiling session {} failed", id, t);
            try {
                requests.close();
                stopConcurrency();
                recording.cancel();
            } catch (Throwable ignored) {
                // The engine is already broken; the outcome matters more.
            }
            finish(SessionOutcome.failed("session failed: " + t, clock.instant()));
        } finally {
            if (!outcome.isDone()) {
                requests.close();
                finish(SessionOutcome.failed("session thread ended unexpectedly", clock.instant()));
            }
        }
    }

    /** Why the engine must stop now (its disk is filling), or null. Never throws. */
    private String stopReason() {
        try {
            return recording.stopReason().orElse(null);
        } catch (RuntimeException e) {
            log.debug("Session {}: the engine's health check failed: {}", id, e.toString());
            return null;
        }
    }

    /** Stops the concurrency sampler, if any; its report, or null. Never throws. */
    private ConcurrencyReport stopConcurrency() {
        if (concurrency == null || !concurrency.isRunning()) {
            return null;
        }
        try {
            return concurrency.stop().orElse(null);
        } catch (RuntimeException e) {
            log.debug("Concurrency sampling failed: {}", e.toString());
            return null;
        }
    }

    private void finish(SessionOutcome o) {
        outcome.complete(o);
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public SessionTrigger trigger() {
        return trigger;
    }

    @Override
    public String engine() {
        return recording.engineId();
    }

    @Override
    public Instant startedAt() {
        return startedAt;
    }

    @Override
    public Duration duration() {
        return duration;
    }

    @Override
    public Duration elapsed() {
        Duration elapsed = Duration.between(startedAt, clock.instant());
        return elapsed.isNegative() ? Duration.ZERO : elapsed;
    }

    @Override
    public long samplesSoFar() {
        long engineCount = recording.samplesSoFar();
        return engineCount > 0 ? engineCount : tree.totalSamples();
    }

    @Override
    public CompletionStage<SessionOutcome> outcome() {
        return outcome;
    }

    @Override
    public boolean isDone() {
        return outcome.isDone();
    }

    @Override
    public void cancel(String reason) {
        cancelReason = reason;
        stopSignal.countDown();
    }

    @Override
    public void stopEarly(String reason) {
        if (stopEarlyReason == null) {
            stopEarlyReason = reason;
        }
        stopSignal.countDown();
    }

    /** Waits for the session's thread to finish its work. */
    boolean awaitEnd(Duration timeout) {
        try {
            outcome.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (Exception e) {
            return outcome.isDone();
        }
    }

    /**
     * What requests reported while a session recorded, and the sink that joins the samples with it.
     *
     * @param maxEndpoints most endpoints the profile names
     * @param waits what the requests' threads wait on (a LATENCY session), or null
     */
    record SessionRequests(RequestTimeline timeline, EndpointTally tally, int maxEndpoints,
            boolean engineSeesVirtualThreads, JfrWaitRecording waits) {

        /** Ends the request log; the samples the engine hands over from now on are joined with it. */
        RequestLog stop() {
            RequestLog log = timeline.stop();
            tally.join(timeline.isReported() && !blind() ? log : null);
            return log;
        }

        /** Requests run on virtual threads, and the engine's samples name their carriers. */
        boolean blind() {
            return timeline.virtualThreads() && !engineSeesVirtualThreads;
        }

        /** Stops recording waits and joins them with the requests in {@code log}; null when it recorded none. */
        WaitTally stopWaits(RequestLog log) {
            if (waits == null) {
                return null;
            }
            WaitTally tally = new WaitTally(timeline.isReported() ? log : null);
            waits.stop(tally);
            return tally;
        }

        /** Once the samples are joined: the names of requests still running are no longer needed, nor the waits. */
        void close() {
            timeline.close();
            if (waits != null) {
                waits.cancel();
            }
        }
    }
}
