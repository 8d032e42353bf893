package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.RunningSession;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.internal.compare.ProfileComparator;
import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.SelectedRecording;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.internal.requests.EndpointTally;
import dev.cpuprofiler.internal.requests.RequestLog;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import dev.cpuprofiler.ConcurrencyReport;
import dev.cpuprofiler.internal.threads.ConcurrencySampler;
import dev.cpuprofiler.CpuBreakdown;
import dev.cpuprofiler.internal.threads.CpuBreakdownProbe;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One recording: waits out its duration on its own thread, stops the engine, builds the profile, compares it with the
 * reference of normal in force when it started (if any) and hands it to the store. Its outcome always completes —
 * normally, on failure, on cancel, or if the thread dies of an {@link Error} — so the trigger policy never waits
 * forever.
 */
final class ProfilingSession implements RunningSession, Runnable {

    private static final Logger log = LoggerFactory.getLogger(ProfilingSession.class);
    // How often a running recording is asked whether it must stop early (its disk is filling).
    private static final Duration HEALTH_CHECK = Duration.ofSeconds(1);
    /** How many traces a profile lists. */
    static final int HOTTEST_TRACES = 10;

    private final String id;
    private final SessionTrigger trigger;
    private final SelectedRecording recording;
    private final StackTree tree;
    private final Instant startedAt;
    private final Duration duration;
    private final Duration samplingPeriod;
    private final ProfileStore store;
    private final Clock clock;
    private final Supplier<Double> cpuPercentSince;
    private final ConcurrencySampler concurrency;
    private final LookbackSnapshot lookback;
    private final CpuBreakdownProbe.Measurement breakdown;
    private final Requests requests;
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private final CompletableFuture<SessionOutcome> outcome = new CompletableFuture<>();
    private volatile String cancelReason;
    private volatile String stopEarlyReason;
    private final ThreadFocus focus;
    private final Profile reference;

    /** @param reference the reference of normal in force when it started, which its profile is compared with; or null */
    ProfilingSession(String id, SessionTrigger trigger, SelectedRecording recording, StackTree tree, Instant startedAt,
            Duration duration, Duration samplingPeriod, ProfileStore store, Clock clock,
            Supplier<Double> cpuPercentSince, ConcurrencySampler concurrency, LookbackSnapshot lookback,
            CpuBreakdownProbe.Measurement breakdown, Requests requests, ThreadFocus focus, Profile reference) {
        this.id = id;
        this.trigger = trigger;
        this.recording = recording;
        this.tree = tree;
        this.startedAt = startedAt;
        this.duration = duration;
        this.samplingPeriod = samplingPeriod;
        this.store = store;
        this.clock = clock;
        this.cpuPercentSince = cpuPercentSince;
        this.concurrency = concurrency;
        this.lookback = lookback;
        this.breakdown = breakdown;
        this.requests = requests;
        this.focus = focus;
        this.reference = reference;
    }

    /**
     * What requests reported while the session recorded, and the sink that joins the samples with it.
     *
     * @param maxEndpoints most endpoints the profile names
     */
    record Requests(RequestTimeline timeline, EndpointTally tally, int maxEndpoints, boolean engineSeesVirtualThreads) {

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

        /** Once the samples are joined: the names of requests still running are no longer needed. */
        void close() {
            timeline.close();
        }
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
            EngineRecording.Result result = recording.stop();
            List<String> notes = new ArrayList<>(result.notes());
            if (earlyStop != null) {
                String why = "stopped after " + Duration.between(startedAt, endedAt).toSeconds() + " s of "
                        + duration.toSeconds() + " s to keep what was recorded: " + earlyStop;
                notes.add(0, why);
                log.warn("Profile {} {}", id, why);
            }
            if (cutShort != null) {
                notes.add(0, String.format(Locale.ROOT, "%s: recorded %.1f s of the %d s planned", cutShort,
                        Duration.between(startedAt, endedAt).toMillis() / 1000.0, duration.toSeconds()));
            }
            // Only what the tree cut: stacks the engine cut already have their own note.
            if (tree.samplesCutByLimits() > 0) {
                notes.add(tree.samplesCutByLimits() + " samples were cut to fit the tree's limits (max-stack-depth "
                        + tree.maxStackDepth() + ", max-tree-nodes " + tree.maxTreeNodes() + ")");
            }
            requests.close();
            List<EndpointShare> endpoints = requests.tally().endpoints(tree.totalSamples(), samplingPeriod,
                    requests.maxEndpoints());
            endpointNotes(requestLog, endpoints).forEach(notes::add);
            Profile profile = new Profile(id, trigger, new Profile.Recording(EngineChoice.fromId(result.engineId()),
                    result.engineDetail(), result.fallbacks(), notes, startedAt, endedAt, samplingPeriod,
                    tree.totalSamples(), result.lostSamples(), result.jfrFile()), tree.snapshot(),
                    new Profile.CpuUse(cpuPercent, report, cpuBreakdown), new Profile.Requests(endpoints,
                            requests.tally().tree(), requests.tally().hottestTraces(samplingPeriod, HOTTEST_TRACES),
                            requests.tally().spanTree()), lookback, focus == null ? null : focus.saturation(), null);
            store.add(compared(profile));
            Profile.Recording recorded = profile.recording();
            if (trigger == SessionTrigger.REFERENCE) {
                log.info("Recorded a reference of normal, {}: {} samples by {} in {}, {}", id, recorded.samples(),
                        recorded.engine(), recorded.duration(), requestsSeen(profile));
            } else {
                log.info("Profile {} recorded: {} samples by {} ({}) in {}{}", id, recorded.samples(),
                        recorded.engine(), recorded.engineDetail(), recorded.duration(), lookback == null ? ""
                                : ", plus " + lookback.samples() + " look-back samples from the "
                                        + lookback.duration() + " before");
            }
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


    /**
     * The profile with what changed from the reference it started with; as it is without one, or when the comparison
     * fails (a comparison never costs the profile).
     */
    private Profile compared(Profile profile) {
        if (reference == null) {
            return profile;
        }
        try {
            return profile.withComparison(ProfileComparator.compare(reference, profile));
        } catch (RuntimeException e) {
            log.warn("Profile {} could not be compared with the reference {}; it is kept without a comparison", id,
                    reference.id(), e);
            return profile;
        }
    }

    /** The requests a reference saw, in a few words. */
    private static String requestsSeen(Profile profile) {
        long requests = 0;
        int endpoints = 0;
        for (EndpointShare e : profile.requests().endpoints()) {
            if (e.requests() != null && e.requests() > 0) {
                requests += e.requests();
                endpoints++;
            }
        }
        return requests + " requests to " + endpoints + (endpoints == 1 ? " endpoint" : " endpoints");
    }

    /** What a reader of the endpoints must know: why there are none, or why they cover less than the profile. */
    private List<String> endpointNotes(RequestLog log, List<EndpointShare> endpoints) {
        List<String> notes = new ArrayList<>();
        if (!requests.timeline().isReported()) {
            notes.add("no endpoints: nothing reports requests to the profiler (the starter reports the application's "
                    + "Micrometer observations, and finds no ObservationRegistry here)");
            return notes;
        }
        if (requests.blind()) {
            notes.add("no endpoints: the application serves requests on virtual threads, and " + recording.engineId()
                    + " samples their carrier threads, so no sample can be joined with its request; jfr-execution "
                    + "or jfr-cpu-time (JDK 25) can");
            return notes;
        }
        if (log != null && log.dropped() > 0) {
            notes.add("endpoints cover the session only until its request log filled (" + RequestTimeline.MAX_EVENTS
                    + " events): " + log.dropped() + " later events were not kept, and the samples they would have "
                    + "named count under " + RequestLog.NO_REQUEST);
        }
        if (log != null && log.tracesLeftOut() > 0) {
            notes.add("hottestTraces and span labels leave out " + log.tracesLeftOut() + " traced requests: their "
                    + "ids are not lowercase hex (at most 32 digits, 16 for a span), as Brave and OpenTelemetry write "
                    + "them");
        }
        if (requests.tally().spansCut()) {
            notes.add("pprof and OTLP carry no span labels: keeping each traced request's stacks apart outgrew "
                    + "max-tree-nodes; their endpoint labels and hottestTraces are whole");
        }
        if (lookback != null && !endpoints.isEmpty()) {
            notes.add("endpoints count the session's samples only: requests are not recorded in the look-back");
        }
        return notes;
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
}
