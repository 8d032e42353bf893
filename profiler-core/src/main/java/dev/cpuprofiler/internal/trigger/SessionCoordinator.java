package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.InvalidOptionException;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionAlreadyRunningException;
import dev.cpuprofiler.SessionEndListener;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionStartException;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.requests.LatencyRule;
import dev.cpuprofiler.internal.session.SessionLauncher;
import dev.cpuprofiler.internal.threads.SaturationReading;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the profiling sessions, one at a time ({@link SessionSlot}): the one its {@link TriggerDecision} calls for at a
 * {@link #poll()} (every polling interval), and the on-demand ones asked for. A session the profiler started by itself
 * that ends, completed or failed, starts a cooldown from its end ({@link Holds}); on-demand sessions do not.
 *
 * <p>A reference of normal (trigger REFERENCE) starts once the application has been calm at every poll for the
 * settle time ({@link CalmStreak}), records only while it stays calm, never delays anything else and starts no
 * cooldown: how it gives way to an incident, an on-demand start or a rise is {@link ReferenceGivingWay}'s.
 *
 * <p>It cannot get stuck in {@code PROFILING}: a session that fails to launch is recorded as failed at once, a
 * session's outcome always completes (the launcher guarantees it), and as a last resort it cancels a session still
 * running {@link #WATCHDOG_GRACE} past its duration, counted as failed.
 *
 * <p>A launch ({@link SessionLaunches}: the look-back hands over, an engine starts, a second or more) runs without any
 * lock, on a reserved slot: meanwhile it counts as profiling, a poll launches nothing, and an on-demand start or a
 * shutdown waits for it.
 * Reading it ({@link #state()}, {@link #activeSession()}, the holds) never waits, so neither a status request nor a
 * metrics scrape does; a poll never waits for a launch, so {@link #poll(Executor)} can run on the CPU sampler's own
 * thread.
 */
public final class SessionCoordinator {

    private static final Logger log = LoggerFactory.getLogger(SessionCoordinator.class);
    /**
     * The longest a shutdown waits for a session still starting: an engine starts in well under a second (async-
     * profiler's first load included), so only a hung one reaches it.
     */
    public static final Duration SHUTDOWN_LAUNCH_WAIT = Duration.ofSeconds(5);

    /** How long past its duration a session may run before the coordinator gives up on it. */
    static final Duration WATCHDOG_GRACE = Duration.ofSeconds(30);

    private final boolean enabled;
    private final Duration duration;
    private final Duration startupGrace;
    private final boolean referenceOn;
    private final Duration referenceDuration;
    private final TriggerDecision decision;
    private final Holds holds;
    private final Supplier<Optional<SaturationReading>> saturation;
    private final Supplier<OptionalDouble> average;
    private final Supplier<Optional<LatencyRule.SlowEndpoint>> slow;
    private final BooleanSupplier rising;
    private final Clock clock;
    private final SessionSlot slot = new SessionSlot();
    // Orders the decisions (a poll) with the records of an end (outcome, cooldown, the slot freed): a poll sees a
    // session's end whole. Readers do not take it.
    private final ReentrantLock decisions = new ReentrantLock();
    private final SessionEnds ends;
    private final ReferenceGivingWay givingWay;
    private final CalmStreak calm;
    private final SessionLaunches launches;

    /**
     * @param options the trigger's settings ({@code enabled}, {@code threshold}, {@code cooldown}, {@code duration},
     *        {@code startup-grace}), the saturation trigger's and the reference's
     * @param effectiveCpus the CPUs the average is a percentage of: an idle application records no reference
     * @param saturation the hottest thread at the latest tick ({@code ThreadCpuTracker#saturation}), or null when this
     *        JVM cannot measure per-thread CPU (no saturation trigger then); a pinned thread is never calm
     * @param rising whether the CPU is rising above its normal now (the look-back is armed): no calm moment for a
     *        reference; read only when one is due
     * @param slow the endpoint whose requests are slow by the {@link LatencyRule} now, if any
     * @param holds the holds it keeps, shared with the look-back
     */
    public SessionCoordinator(CpuProfilerOptions options, double effectiveCpus, Supplier<OptionalDouble> average,
            Supplier<Optional<SaturationReading>> saturation, BooleanSupplier rising,
            Supplier<Optional<LatencyRule.SlowEndpoint>> slow, Holds holds, SessionLauncher launcher, Clock clock) {
        this.enabled = options.isEnabled();
        this.duration = options.getDuration();
        this.startupGrace = options.getStartupGrace();
        this.referenceOn = options.getReference().isEnabled();
        this.referenceDuration = options.getReference().getDuration();
        this.decision = new TriggerDecision(options, saturation != null, effectiveCpus);
        this.holds = Objects.requireNonNull(holds, "holds");
        this.saturation = saturation != null ? saturation : Optional::empty;
        this.average = Objects.requireNonNull(average, "average");
        this.slow = Objects.requireNonNull(slow, "slow");
        this.rising = Objects.requireNonNull(rising, "rising");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ends = new SessionEnds(slot, holds, options.getCooldown(), options.getLatency().getCooldown(),
                ReferenceGivingWay.RETRY_AFTER, decisions,
                () -> decision.cpuOwns(this.average.get(), this.saturation.get()));
        this.givingWay = new ReferenceGivingWay(slot, decisions, decision, this.rising);
        // A reference's baseline must be a calm one too: calm for a whole average window first.
        this.calm = new CalmStreak(options.getAverageWindow());
        this.launches = new SessionLaunches(Objects.requireNonNull(launcher, "launcher"), slot, ends, holds, clock);
    }

    /** Told of every session's end, after its cooldown is set; in the order they were added. */
    public void addListener(SessionEndListener listener) {
        ends.addListener(listener);
    }

    /** One trigger check; a session it starts is launched on the calling thread. Never throws. */
    public void poll() {
        poll(Runnable::run);
    }

    /**
     * One trigger check, called every polling interval; a session it starts is launched by {@code launches}, so the
     * caller does not wait for it (until it is launched it counts as profiling). Never throws.
     */
    public void poll(Executor launches) {
        try {
            Reservation reserved = reserve();
            if (reserved != null) {
                SessionTrigger t = reserved.trigger();
                this.launches.automatic(t, t == SessionTrigger.REFERENCE ? referenceDuration
                        : duration, reserved.supersededEnd(), launches);
            }
        } catch (RuntimeException e) {
            log.warn("CPU trigger check failed; next check in one polling interval", e);
        }
    }

    /**
     * The slot reserved for a launch: its trigger, and what completes once the reference it superseded has ended (null
     * when it superseded none).
     */
    private record Reservation(SessionTrigger trigger, CompletionStage<?> supersededEnd) {
    }

    /** The launch it reserved the slot for, which the caller must then make, or null. */
    private Reservation reserve() {
        calm.nextPoll();
        OptionalDouble avg = average.get();
        Optional<SaturationReading> hottest = saturation.get();
        Optional<LatencyRule.SlowEndpoint> slowest = slow.get();
        // No launch or session holds the slot, so no watchdog either, nothing could trigger and no reference is due:
        // no lock, and the clock only with references on and the application not idle.
        if (!slot.taken() && decision.nothingToDecide(avg, hottest, slowest)
                && !decision.referenceMayBeDue(holds, clock, avg)) {
            return null;
        }
        decisions.lock();
        try {
            Instant now = clock.instant();
            if (holds.isShutDown()) {
                return null;
            }
            Optional<RunningSession> reference = recordingReference(now);
            if (slot.taken() && reference.isEmpty()) {
                return null;
            }
            TriggerDecision.Activity activity = reference.isPresent() ? TriggerDecision.Activity.REFERENCE_RECORDING
                    : referenceOn && rising.getAsBoolean() ? TriggerDecision.Activity.RISING
                    : TriggerDecision.Activity.NONE;
            Optional<SessionTrigger> trigger = decision.decide(avg, hottest, slowest, activity, holds, now);
            if (trigger.equals(Optional.of(SessionTrigger.REFERENCE)) && !calm.calmAndSettled(now)) {
                log.debug("Calm since {}: a reference of normal starts if it still is at {}", calm.since(),
                        calm.settlesAt());
                return null;
            }
            if (trigger.isEmpty()) {
                reference.ifPresent(r -> givingWay.cancelIfNotCalm(r, avg, hottest));
                return null;
            }
            if (reference.isPresent()) {
                CompletionStage<?> ended = givingWay.supersede(reference.get(), "a " + trigger.get()
                        + "-triggered session starts: the application is no longer calm");
                return ended == null ? null : new Reservation(trigger.get(), ended);
            }
            return slot.tryReserve() ? new Reservation(trigger.get(), null) : null;
        } finally {
            decisions.unlock();
        }
    }

    /**
     * The reference of normal recording in the slot, which a trigger may cancel, if that is what holds it; an overdue
     * session is ended first. Whether anything else holds the slot is then {@link SessionSlot#taken()}: a reference
     * still being launched is cancelled at the next poll, once its engine has started.
     */
    private Optional<RunningSession> recordingReference(Instant now) {
        if (slot.launching()) {
            log.debug("A profiling session is being launched; not checking CPU");
            return Optional.empty();
        }
        Optional<RunningSession> active = slot.session();
        if (active.isPresent()) {
            RunningSession s = active.get();
            Optional<String> overdue = overdue(s, now);
            if (overdue.isEmpty()) {
                if (s.trigger() == SessionTrigger.REFERENCE) {
                    return active;
                }
                log.debug("Session {} is recording; not checking CPU", s.id());
                return Optional.empty();
            }
            log.warn("Profiling session {} {}", s.id(), overdue.get());
            try {
                s.cancel(overdue.get());
            } catch (RuntimeException e) {
                log.warn("Cancelling session {} failed", s.id(), e);
            }
            ends.ended(s, SessionOutcome.failed(overdue.get(), now));
        }
        return Optional.empty();
    }

    /**
     * Why this session is overdue at {@code now}, or empty: the last resort against a session that never ends is to
     * cancel one still running {@link #WATCHDOG_GRACE} past its duration, counted as failed. A session already done is
     * never overdue (its outcome callback is on its way).
     */
    private static Optional<String> overdue(RunningSession s, Instant now) {
        if (s.isDone() || !now.isAfter(s.startedAt().plus(s.duration()).plus(WATCHDOG_GRACE))) {
            return Optional.empty();
        }
        return Optional.of("session did not end within " + s.duration().plus(WATCHDOG_GRACE)
                + "; cancelled by the trigger policy");
    }

    /**
     * Starts an on-demand profile, whatever the trigger state (also in cooldown or when the CPU trigger is
     * disabled); it does not start a cooldown. A reference of normal recording is cancelled for it.
     *
     * @throws InvalidOptionException unless the duration is one an on-demand profile may have
     * @throws SessionAlreadyRunningException if a session other than a reference is recording
     * @throws IllegalStateException after {@link #shutDown(String)}: the profiler is shutting down
     * @throws RuntimeException if the session could not start
     */
    public RunningSession startOnDemand(Duration duration) {
        return startOnDemand(duration, Runnable::run);
    }

    /**
     * Starts an on-demand profile as {@link #startOnDemand(Duration)} does, its launch (the engine's start) run by
     * {@code launches} while the caller waits: on a platform thread of the profiler's, whatever thread asks.
     * async-profiler cannot start from a virtual thread (a request's, with {@code spring.threads.virtual.enabled}).
     */
    public RunningSession startOnDemand(Duration duration, Executor launches) {
        CpuProfilerOptions.checkOnDemandDuration(Objects.requireNonNull(duration, "duration"));
        CompletionStage<?> superseded = null;
        do {
            refuseAfterShutdown();
            // An automatic launch under way: wait for its session, which is then the one already running.
            if (!slot.awaitLaunch()) {
                throw new IllegalStateException("profiling session could not start: interrupted while another "
                        + "session was being launched");
            }
            refuseAfterShutdown();
            Optional<RunningSession> s = slot.session();
            if (s.isPresent() && s.get().trigger() == SessionTrigger.REFERENCE) {
                // Null: its end was recorded in between, and the slot is free (or a poll's): look again.
                superseded = givingWay.supersede(s.get(), "an on-demand session starts");
                if (superseded != null) {
                    break;
                }
            } else if (s.isPresent()) {
                // Also when it is done but its end is not yet recorded: its cooldown must not be lost.
                throw new SessionAlreadyRunningException(s.get());
            }
        } while (!slot.tryReserve()); // a poll reserved it in between: wait for that launch
        log.info("Starting an on-demand profiling session for {}", duration);
        SessionLaunches.Launch launch = this.launches.onDemand(duration, superseded, launches);
        if (launch.session() == null) {
            // The reason alone, as CpuProfiler documents it: it already says what could not record and why, with no
            // exception's text (the endpoint's 503 shows it).
            throw new SessionStartException(launch.failure().reason(), null);
        }
        return launch.session();
    }

    private void refuseAfterShutdown() {
        holds.shutDownReason().ifPresent(reason -> {
            throw new IllegalStateException("profiling session could not start: " + reason);
        });
    }

    /** The state now (cooldown expiry is seen at once, not only at the next poll). Never waits. */
    public CpuProfilerStatus.State state() {
        if (slot.taken()) {
            return CpuProfilerStatus.State.PROFILING;
        }
        if (!enabled) {
            return CpuProfilerStatus.State.DISABLED;
        }
        if (holds.cooldownUntil(clock.instant()).isPresent()) {
            return CpuProfilerStatus.State.COOLDOWN;
        }
        return CpuProfilerStatus.State.MONITORING;
    }

    /**
     * Monitoring has started: the CPU does not trigger, nor the look-back arm, for the start-up grace from now (JIT
     * warm-up and caches filling burn CPU that is not an incident). On-demand sessions are not held back.
     */
    public void monitoringStarted() {
        Instant until = startupGrace.isZero() ? null : clock.instant().plus(startupGrace);
        holds.startGrace(until);
        if (until != null) {
            log.debug("CPU trigger held back until {} (start-up grace)", until);
        }
    }

    /** The start-up grace, the cooldown and the shutdown, as they hold now. */
    public Holds holds() {
        return holds;
    }

    /**
     * The session recording, if any; empty while one is still being launched ({@link #state()} already counts that
     * as profiling). Never waits.
     */
    public Optional<RunningSession> activeSession() {
        return slot.session();
    }

    /** Whether a pinned thread starts sessions: the CPU trigger and the saturation trigger on, per-thread CPU here. */
    public boolean saturationOn() {
        return decision.saturationOn();
    }

    /**
     * Shutdown: stops the running session, if any, early, keeping what it recorded ({@link
     * CpuProfiler#CUT_SHORT_BY_SHUTDOWN}), and refuses every session after it (an on-demand start then fails with the
     * reason, a poll does nothing, the look-back does not resume). A launch under way is waited for, {@link
     * #SHUTDOWN_LAUNCH_WAIT} at most, and its session stopped so too, so no session outlives the profiler, and no
     * engine recreates the files it cleans up; an engine whose start hangs holds the shutdown no longer (the launch
     * stops its session itself when it returns). Returns without waiting for the session to end: its outcome says
     * when its profile is stored.
     *
     * @return the session stopping, if one recorded
     */
    public Optional<RunningSession> shutDown(String reason) {
        return shutDown(reason, SHUTDOWN_LAUNCH_WAIT);
    }

    /** As {@link #shutDown(String)}, waiting at most {@code launchWait} for a launch under way. */
    Optional<RunningSession> shutDown(String reason, Duration launchWait) {
        holds.shutDown(reason);
        // Timed out or interrupted: the launch stops its own session when it is done (it reads the hold set above).
        if (!slot.awaitLaunch(launchWait)) {
            log.warn("A profiling session was still starting after {}: the profiler shuts down without waiting for "
                    + "it; it stops itself once its engine has started", launchWait);
            return Optional.empty();
        }
        Optional<RunningSession> active = slot.session().filter(s -> !s.isDone());
        active.ifPresent(s -> s.stopEarly(CpuProfiler.CUT_SHORT_BY_SHUTDOWN));
        return active;
    }

    /** Cancels the running session, if any; later sessions may start as usual. */
    public void cancelActive(String reason) {
        slot.session().filter(s -> !s.isDone()).ifPresent(s -> s.cancel(reason));
    }

    /**
     * Since when every poll has found the application calm enough for a reference of normal, and whether that is
     * long enough: a reference records a steady state, never the first seconds of a change (else one started at the
     * first calm poll after the start-up grace or an idle stretch, often the first second of a rise the look-back had
     * not yet seen, and held the engine the look-back needed for the incident that followed). A poll that is not
     * calm, or that does not ask, breaks the streak. Used on the polling thread only.
     */
    private static final class CalmStreak {

        private final Duration settle;
        private long poll;
        private long lastCalmPoll = Long.MIN_VALUE;
        private Instant since;

        /** @param settle how long the application must have been calm, at every poll, before a reference starts */
        CalmStreak(Duration settle) {
            this.settle = Objects.requireNonNull(settle, "settle");
        }

        /** A new poll: unless it finds the application calm, the streak is broken. */
        void nextPoll() {
            poll++;
        }

        /** This poll found the application calm at {@code now}; whether it has been for the whole settle time. */
        boolean calmAndSettled(Instant now) {
            if (since == null || lastCalmPoll != poll - 1) {
                since = now;
            }
            lastCalmPoll = poll;
            return !now.isBefore(since.plus(settle));
        }

        /** Since when the application has been calm, as the last calm poll saw it. */
        Instant since() {
            return since;
        }

        /** When the streak will be long enough, as the last calm poll saw it. */
        Instant settlesAt() {
            return since.plus(settle);
        }
    }
}
