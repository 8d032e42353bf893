package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import dev.cpuprofiler.SessionEndListener;
import dev.cpuprofiler.SessionAlreadyRunningException;
import dev.cpuprofiler.CpuProfilerStatus;

import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.internal.session.SessionLauncher;
import dev.cpuprofiler.internal.threads.SaturationReading;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionStartException;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.cpu.DebugLevel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when to profile. Each {@link #poll()} (every polling interval) compares the baseline with the
 * threshold and starts a CPU-triggered session when the average is strictly above it; else, with the saturation
 * trigger on, a SATURATION session when one application thread has been pinned at or above its threshold of one core
 * over its window ({@link SaturationReading}), however low the CPU% is. A session the profiler started by itself that
 * ends, completed or failed, starts a cooldown from its end; on-demand sessions do not. One session at a time
 * ({@link SessionSlot}).
 *
 * <p>It cannot get stuck in {@code PROFILING}: a session that fails to launch is recorded as failed at
 * once, a session's outcome always completes (the launcher guarantees it), and as a last resort the
 * {@link SessionWatchdog} cancels a session still running past its duration, counted as failed.
 *
 * <p>A launch (the look-back hands over, an engine starts: a second or more) runs without any lock, on a reserved
 * slot: meanwhile the policy counts as profiling, a poll launches nothing, and an on-demand start or a shutdown waits
 * for it. Reading the policy ({@link #state()}, {@link #activeSession()}, the cooldown) never waits, so neither a
 * status request nor a metrics scrape does; a poll never waits for a launch, so {@link #poll(Executor)} can run on
 * the CPU sampler's own thread.
 */
public final class CpuTriggerPolicy {

    private static final Logger log = LoggerFactory.getLogger(CpuTriggerPolicy.class);
    /**
     * The longest a shutdown waits for a session still starting: an engine starts in well under a second (async-
     * profiler's first load included), so only a hung one reaches it.
     */
    public static final Duration SHUTDOWN_LAUNCH_WAIT = Duration.ofSeconds(5);

    private final TriggerSettings settings;
    private final SaturationSettings saturationSettings;
    private final Supplier<Optional<SaturationReading>> saturation;
    private final Supplier<OptionalDouble> average;
    private final SessionLauncher launcher;
    private final Clock clock;
    private final SessionEndListeners listeners = new SessionEndListeners();
    private final SessionWatchdog watchdog;
    private final SessionSlot slot = new SessionSlot();
    private final HoldUntil grace = new HoldUntil();
    private final HoldUntil cooldown = new HoldUntil();
    // Orders the decisions (a poll) with the records of an end (outcome, cooldown, the slot freed): a poll sees a
    // session's end whole. Readers do not take it.
    private final ReentrantLock decisions = new ReentrantLock();
    private volatile SessionOutcome lastOutcome;
    private volatile double lastSeenAverage = Double.NaN;
    private volatile String shutDownReason; // why no session may start any more (the profiler is closing), or null
    private final DebugLevel debug = new DebugLevel(log);

    /** Without the saturation trigger. */
    public CpuTriggerPolicy(TriggerSettings settings, Supplier<OptionalDouble> average, SessionLauncher launcher,
            Clock clock) {
        this(settings, average, SaturationSettings.OFF, Optional::empty, launcher, clock);
    }

    /**
     * @param saturation the hottest thread at the latest tick ({@code ThreadCpuTracker#saturation}); read only when
     *        {@code saturationSettings} are enabled
     */
    public CpuTriggerPolicy(TriggerSettings settings, Supplier<OptionalDouble> average,
            SaturationSettings saturationSettings, Supplier<Optional<SaturationReading>> saturation,
            SessionLauncher launcher, Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.saturationSettings = Objects.requireNonNull(saturationSettings, "saturationSettings");
        this.saturation = Objects.requireNonNull(saturation, "saturation");
        this.average = Objects.requireNonNull(average, "average");
        this.launcher = Objects.requireNonNull(launcher, "launcher");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.watchdog = new SessionWatchdog(settings.watchdogGrace());
    }

    public void addListener(SessionEndListener listener) {
        listeners.add(listener);
    }

    /** One policy check; a session it starts is launched on the calling thread. Never throws. */
    public void poll() {
        poll(Runnable::run);
    }

    /**
     * One policy check, called every polling interval; a session it starts is launched by {@code launches}, so the
     * caller does not wait for it (until it is launched the policy counts as profiling). Never throws.
     */
    public void poll(Executor launches) {
        try {
            SessionTrigger trigger = decide();
            if (trigger != null) {
                launchAutomatic(trigger, launches);
            }
        } catch (RuntimeException e) {
            log.warn("CPU trigger policy check failed; next check in one polling interval", e);
        }
    }

    /**
     * The check itself: the trigger of the launch it reserved, which the caller must then make, or null. The CPU
     * trigger keeps precedence when both hold.
     */
    private SessionTrigger decide() {
        if (nothingToDecide()) {
            return null;
        }
        decisions.lock();
        try {
            if (shutDownReason != null || !slotFree(clock.instant()) || !triggerOn()) {
                return null;
            }
            SessionTrigger trigger = cpuAboveThreshold() ? SessionTrigger.CPU
                    : threadSaturated() ? SessionTrigger.SATURATION : null;
            return trigger != null && slot.tryReserve() ? trigger : null;
        } finally {
            decisions.unlock();
        }
    }

    /**
     * Whether this poll has nothing to decide, seen without the lock, the clock or a log call: no launch or session
     * holds the slot (so no watchdog either), the average is known and not above the threshold, and no thread is
     * pinned. The common poll of a monitored application, and on a calm one most of an idle tick's cost when it took
     * the whole way interpreted (about 100 µs). At DEBUG every poll takes the whole way, which logs what it saw.
     */
    private boolean nothingToDecide() {
        if (debug.on() || shutDownReason != null || slot.taken()) {
            return false;
        }
        OptionalDouble avg = average.get();
        if (avg.isEmpty() || avg.getAsDouble() > settings.thresholdPercent()) {
            return false;
        }
        lastSeenAverage = avg.getAsDouble();
        if (saturationSettings.enabled()) {
            Optional<SaturationReading> hottest = saturation.get();
            return hottest.isEmpty() || !hottest.get().saturated();
        }
        return true;
    }

    /** Whether one thread has been pinned for a whole window. Formats nothing unless it logs: it runs every poll. */
    private boolean threadSaturated() {
        if (!saturationSettings.enabled()) {
            return false;
        }
        Optional<SaturationReading> hottest = saturation.get();
        if (hottest.isEmpty()) {
            log.debug("Saturation: no application thread was active at the latest tick; not profiling");
            return false;
        }
        SaturationReading r = hottest.get();
        if (r.saturated()) {
            log.info("Thread '{}' used {}% of one core over {} (threshold {}%, for {}): starting a "
                    + "SATURATION-triggered profiling session for {}", r.thread(), String.format("%.1f",
                    r.percentOfCore()), saturationSettings.window(), String.format("%.1f",
                    saturationSettings.thresholdPercent()), r.aboveFor(), settings.duration());
            return true;
        }
        if (log.isDebugEnabled()) {
            log.debug("Saturation: hottest thread '{}' at {}% of one core over {} is not at the threshold {}% for a "
                    + "whole window: not profiling", r.thread(), String.format("%.1f", r.percentOfCore()),
                    saturationSettings.window(), String.format("%.1f", saturationSettings.thresholdPercent()));
        }
        return false;
    }

    /** Whether no session is being launched or recording (an overdue one is ended here first). */
    private boolean slotFree(Instant now) {
        if (slot.launching()) {
            log.debug("A profiling session is being launched; not checking CPU");
            return false;
        }
        Optional<RunningSession> active = slot.session();
        if (active.isPresent()) {
            RunningSession s = active.get();
            Optional<String> overdue = watchdog.overdue(s, now);
            if (overdue.isEmpty()) {
                log.debug("Session {} is recording; not checking CPU", s.id());
                return false;
            }
            log.warn("Profiling session {} {}", s.id(), overdue.get());
            try {
                s.cancel(overdue.get());
            } catch (RuntimeException e) {
                log.warn("Cancelling session {} failed", s.id(), e);
            }
            ended(s, SessionOutcome.failed(overdue.get(), now));
        }
        return !slot.taken();
    }

    /** Whether the CPU may trigger now: enabled, past the start-up grace and any cooldown. */
    private boolean triggerOn() {
        if (!settings.enabled()) {
            log.debug("CPU trigger disabled (profiler.cpu.enabled=false); not checking CPU");
            return false;
        }
        Instant now = clock.instant();
        Optional<Instant> graceUntil = grace.inForce(now);
        if (graceUntil.isPresent()) {
            log.debug("In start-up grace until {}; not checking CPU", graceUntil.get());
            return false;
        }
        Optional<Instant> cooldownUntil = cooldown.inForce(now);
        if (cooldownUntil.isPresent()) {
            if (log.isDebugEnabled()) {
                log.debug("In cooldown until {} ({} left); not checking CPU", cooldownUntil.get(),
                        Duration.between(now, cooldownUntil.get()));
            }
            return false;
        }
        cooldown.takeEnded(now).ifPresent(until -> log.debug("Cooldown ended at {}; monitoring again", until));
        return true;
    }

    private boolean cpuAboveThreshold() {
        OptionalDouble avg = average.get();
        if (avg.isEmpty()) {
            log.debug("Getting current CPU usage: no baseline yet (first rolling interval not complete)");
            return false;
        }
        double value = avg.getAsDouble();
        lastSeenAverage = value;
        boolean debug = log.isDebugEnabled(); // formatting costs more than the whole check: only when it is shown
        if (debug) {
            log.debug("Getting current CPU usage: {}", String.format("%.1f", value));
        }
        if (value > settings.thresholdPercent()) {
            log.info("CPU average {}% is above the threshold {}%: starting a CPU-triggered profiling session for {}",
                    String.format("%.1f", value), String.format("%.1f", settings.thresholdPercent()),
                    settings.duration());
            return true;
        }
        if (debug) {
            log.debug("CPU average {}% is not above the threshold {}%: not profiling", String.format("%.1f", value),
                    String.format("%.1f", settings.thresholdPercent()));
        }
        return false;
    }

    /** Hands the reserved automatic launch to {@code launches}; a launch that cannot be handed over fails. */
    private void launchAutomatic(SessionTrigger trigger, Executor launches) {
        AtomicBoolean ran = new AtomicBoolean();
        try {
            launches.execute(() -> {
                ran.set(true);
                launch(trigger, settings.duration());
            });
        } catch (RuntimeException | OutOfMemoryError e) {
            if (ran.get()) {
                throw e; // the launch ran (on this thread) and has already ended its reservation
            }
            launchFailed(trigger, e); // no thread to launch on: it fails like a launch that threw
        }
    }

    /**
     * Starts an on-demand profile, whatever the trigger state (also in cooldown or when the CPU trigger is
     * disabled); it does not start a cooldown.
     *
     * @throws SessionAlreadyRunningException if a session is recording
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
        Objects.requireNonNull(duration, "duration");
        do {
            refuseAfterShutdown();
            // A CPU-triggered launch under way: wait for its session, which is then the one already running.
            if (!slot.awaitLaunch()) {
                throw new IllegalStateException("profiling session could not start: interrupted while another "
                        + "session was being launched");
            }
            refuseAfterShutdown();
            Optional<RunningSession> s = slot.session();
            if (s.isPresent()) {
                // Also when it is done but its end is not yet recorded: its cooldown must not be lost.
                throw new SessionAlreadyRunningException(s.get());
            }
        } while (!slot.tryReserve()); // a poll reserved it in between: wait for that launch
        log.info("Starting an on-demand profiling session for {}", duration);
        Launch launch = launchOn(launches, duration);
        if (launch.session() == null) {
            // The reason alone, as CpuProfiler documents it: it already says what could not record and why, with no
            // exception's text (the endpoint's 503 shows it).
            throw new SessionStartException(launch.failure().reason(), null);
        }
        return launch.session();
    }

    /** Runs the reserved on-demand launch on {@code launches} and waits for it; no thread to run on fails it. */
    private Launch launchOn(Executor launches, Duration duration) {
        CompletableFuture<Launch> launched = new CompletableFuture<>();
        try {
            launches.execute(() -> {
                try {
                    launched.complete(launch(SessionTrigger.MANUAL, duration));
                } catch (Error e) {
                    launched.completeExceptionally(e);
                    throw e;
                }
            });
        } catch (RuntimeException | OutOfMemoryError e) {
            if (launched.isDone()) {
                throw e;
            }
            return new Launch(null, launchFailed(SessionTrigger.MANUAL, e));
        }
        try {
            return launched.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    private void refuseAfterShutdown() {
        String reason = shutDownReason;
        if (reason != null) {
            throw new IllegalStateException("profiling session could not start: " + reason);
        }
    }

    /** What a launch gave: the session, or why there is none. */
    private record Launch(RunningSession session, SessionOutcome failure) {
    }

    /**
     * Launches the session the slot is reserved for, without any lock, and records it, or records it failed. A
     * session launched after a shutdown began is stopped at once, keeping what it recorded.
     */
    private Launch launch(SessionTrigger trigger, Duration duration) {
        RunningSession s;
        try {
            s = launcher.launch(trigger, duration);
        } catch (RuntimeException | LinkageError e) {
            return new Launch(null, launchFailed(trigger, e));
        } catch (Error e) {
            slot.launchFailed(); // never stay reserved
            throw e;
        }
        slot.launched(s);
        s.outcome().whenComplete((outcome, error) -> ended(s,
                outcome != null ? outcome : SessionOutcome.failed("session failed: " + error, clock.instant())));
        // Read after the slot names the session: a shutdown that began before sees it and stops it, or this does.
        if (shutDownReason != null) {
            s.stopEarly(CpuProfiler.CUT_SHORT_BY_SHUTDOWN);
        }
        return new Launch(s, null);
    }

    /** Records a launch that failed (a CPU-triggered one starts a cooldown) and frees the slot. */
    private SessionOutcome launchFailed(SessionTrigger trigger, Throwable e) {
        Instant now = clock.instant();
        // The reason is served (the status's last outcome): an unexpected exception's text, which may hold a path,
        // goes only to the log.
        String reason = e instanceof SessionStartException ? e.getMessage() : "session could not start ("
                + EngineUnavailableException.unexpected(e) + ")";
        log.warn("Profiling session ({}) could not start: {}", trigger, reason,
                e instanceof SessionStartException ? null : e);
        SessionOutcome outcome = SessionOutcome.failed(reason, now);
        decisions.lock();
        try {
            lastOutcome = outcome;
            if (trigger.automatic()) {
                cooldown.set(now.plus(settings.cooldown()));
            }
            slot.launchFailed();
        } finally {
            decisions.unlock();
        }
        listeners.ended(trigger, null, outcome);
        return outcome;
    }

    private void ended(RunningSession s, SessionOutcome outcome) {
        decisions.lock();
        try {
            if (!slot.heldBy(s)) {
                return; // already ended (watchdog)
            }
            lastOutcome = outcome;
            if (s.trigger().automatic()) {
                Instant until = outcome.endedAt().plus(settings.cooldown());
                cooldown.set(until);
                log.info("{}-triggered session {} ended {}{}; cooldown until {}", s.trigger(), s.id(), outcome.status(),
                        outcome.reason() == null ? "" : " (" + outcome.reason() + ")", until);
            } else {
                log.info("On-demand session {} ended {}{}", s.id(), outcome.status(),
                        outcome.reason() == null ? "" : " (" + outcome.reason() + ")");
            }
            slot.release(s); // last: a poll that finds the slot free finds the cooldown too
        } finally {
            decisions.unlock();
        }
        listeners.ended(s.trigger(), s, outcome);
    }

    /** The state now (cooldown expiry is seen at once, not only at the next poll). Never waits. */
    public CpuProfilerStatus.State state() {
        if (slot.taken()) {
            return CpuProfilerStatus.State.PROFILING;
        }
        if (!settings.enabled()) {
            return CpuProfilerStatus.State.DISABLED;
        }
        if (cooldown.inForce(clock.instant()).isPresent()) {
            return CpuProfilerStatus.State.COOLDOWN;
        }
        return CpuProfilerStatus.State.MONITORING;
    }

    /**
     * Monitoring has started: the CPU does not trigger for the start-up grace from now (JIT warm-up and caches
     * filling burn CPU that is not an incident). On-demand sessions are not held back.
     */
    public void monitoringStarted() {
        Instant until = settings.startupGrace().isZero() ? null : clock.instant().plus(settings.startupGrace());
        grace.set(until);
        if (until != null) {
            log.debug("CPU trigger held back until {} (start-up grace)", until);
        }
    }

    /** When the start-up grace ends, if it is in force now. */
    public Optional<Instant> graceUntil() {
        return grace.inForce(clock.instant());
    }

    /** When the cooldown ends, if one is in force now. */
    public Optional<Instant> cooldownUntil() {
        return cooldown.inForce(clock.instant());
    }

    /** Time left in the cooldown, if one is in force now. */
    public Optional<Duration> cooldownRemaining() {
        return cooldown.remaining(clock.instant());
    }

    /**
     * The session recording, if any; empty while one is still being launched ({@link #state()} already counts that
     * as profiling). Never waits.
     */
    public Optional<RunningSession> activeSession() {
        return slot.session();
    }

    /** How the last session ended, if one did. */
    public Optional<SessionOutcome> lastOutcome() {
        return Optional.ofNullable(lastOutcome);
    }

    /** The last average the policy compared with the threshold; NaN before the first. */
    public double lastSeenAverage() {
        return lastSeenAverage;
    }

    public TriggerSettings settings() {
        return settings;
    }

    public SaturationSettings saturationSettings() {
        return saturationSettings;
    }

    /**
     * Shutdown: stops the running session, if any, early, keeping what it recorded ({@link
     * CpuProfiler#CUT_SHORT_BY_SHUTDOWN}), and refuses every session after it (an on-demand start then fails with the
     * reason, a poll does nothing). A launch under way is waited for, {@link #SHUTDOWN_LAUNCH_WAIT} at most, and its
     * session stopped so too, so no session outlives the profiler, and no engine recreates the files it cleans up; an
     * engine whose start hangs holds the shutdown no longer (the launch stops its session itself when it returns).
     * Returns without waiting for the session to end: its outcome says when its profile is stored.
     *
     * @return the session stopping, if one recorded
     */
    public Optional<RunningSession> shutDown(String reason) {
        return shutDown(reason, SHUTDOWN_LAUNCH_WAIT);
    }

    /** As {@link #shutDown(String)}, waiting at most {@code launchWait} for a launch under way. */
    Optional<RunningSession> shutDown(String reason, Duration launchWait) {
        shutDownReason = Objects.requireNonNull(reason, "reason");
        // Timed out or interrupted: the launch stops its own session when it is done (it reads the reason set above).
        if (!slot.awaitLaunch(launchWait)) {
            log.warn("A profiling session was still starting after {}: the profiler shuts down without waiting for "
                    + "it; it stops itself once its engine has started", launchWait);
            return Optional.empty();
        }
        Optional<RunningSession> active = slot.session().filter(s -> !s.isDone());
        active.ifPresent(s -> s.stopEarly(CpuProfiler.CUT_SHORT_BY_SHUTDOWN));
        return active;
    }

    /** Whether {@link #shutDown(String)} was called: no session starts any more. */
    public boolean isShutDown() {
        return shutDownReason != null;
    }

    /** Cancels the running session, if any; later sessions may start as usual. */
    public void cancelActive(String reason) {
        slot.session().filter(s -> !s.isDone()).ifPresent(s -> s.cancel(reason));
    }
}
