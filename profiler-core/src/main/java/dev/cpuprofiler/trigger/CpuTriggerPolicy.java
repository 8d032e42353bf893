package dev.cpuprofiler.trigger;

import dev.cpuprofiler.session.RunningSession;
import dev.cpuprofiler.session.SessionLauncher;
import dev.cpuprofiler.session.SessionOutcome;
import dev.cpuprofiler.session.SessionStartException;
import dev.cpuprofiler.session.SessionTrigger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when to profile. Each {@link #poll()} (every polling interval) compares the baseline with the
 * threshold and starts a CPU-triggered session when the average is strictly above it. A CPU-triggered
 * session that ends, completed or failed, starts a cooldown from its end; on-demand sessions do not.
 * One session at a time.
 *
 * <p>It cannot get stuck in {@code PROFILING}: a session that fails to launch is recorded as failed at
 * once, a session's outcome always completes (the launcher guarantees it), and as a last resort a
 * session still running {@code watchdogGrace} past its duration is cancelled and counted as failed.
 *
 * <p>A launch (the look-back hands over, an engine starts: a second or more) runs without the lock, reserved by a
 * flag: meanwhile the policy counts as profiling, a poll launches nothing, and an on-demand start or a shutdown waits
 * for it. So a poll never waits for a launch, and {@link #poll(Executor)} can run on the CPU sampler's own thread.
 */
public final class CpuTriggerPolicy {

    private static final Logger log = LoggerFactory.getLogger(CpuTriggerPolicy.class);

    private final TriggerSettings settings;
    private final Supplier<OptionalDouble> average;
    private final SessionLauncher launcher;
    private final Clock clock;
    private final List<SessionEndListener> listeners = new CopyOnWriteArrayList<>();

    private RunningSession active;
    private boolean launching; // a session is being launched, outside the lock; notifyAll() when it is done
    private Instant cooldownUntil;
    private SessionOutcome lastOutcome;
    private double lastSeenAverage = Double.NaN;
    private String shutDownReason; // why no session may start any more (the profiler is closing), or null
    private Instant graceUntil; // no CPU trigger before this (start-up grace), or null

    public CpuTriggerPolicy(TriggerSettings settings, Supplier<OptionalDouble> average, SessionLauncher launcher,
            Clock clock) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.average = Objects.requireNonNull(average, "average");
        this.launcher = Objects.requireNonNull(launcher, "launcher");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public void addListener(SessionEndListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
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
            if (doPoll()) {
                launchCpuSession(launches);
            }
        } catch (RuntimeException e) {
            log.warn("CPU trigger policy check failed; next check in one polling interval", e);
        }
    }

    /** The check itself; true when it reserved a CPU-triggered launch, which the caller must then make. */
    private synchronized boolean doPoll() {
        if (shutDownReason != null) {
            return false;
        }
        if (launching) {
            log.debug("A profiling session is being launched; not checking CPU");
            return false;
        }
        Instant now = clock.instant();
        if (active != null) {
            checkWatchdog(now);
            if (active != null) {
                log.debug("Session {} is recording; not checking CPU", active.id());
                return false;
            }
        }
        if (!settings.enabled()) {
            log.debug("CPU trigger disabled (profiler.cpu.enabled=false); not checking CPU");
            return false;
        }
        if (graceUntil != null) {
            if (now.isBefore(graceUntil)) {
                log.debug("In start-up grace until {}; not checking CPU", graceUntil);
                return false;
            }
            graceUntil = null;
        }
        if (cooldownUntil != null) {
            if (now.isBefore(cooldownUntil)) {
                if (log.isDebugEnabled()) {
                    log.debug("In cooldown until {} ({} left); not checking CPU", cooldownUntil,
                            Duration.between(now, cooldownUntil));
                }
                return false;
            }
            log.debug("Cooldown ended at {}; monitoring again", cooldownUntil);
            cooldownUntil = null;
        }
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
            launching = true;
            return true;
        }
        if (debug) {
            log.debug("CPU average {}% is not above the threshold {}%: not profiling", String.format("%.1f", value),
                    String.format("%.1f", settings.thresholdPercent()));
        }
        return false;
    }

    /** Hands the reserved CPU-triggered launch to {@code launches}; a launch that cannot be handed over fails. */
    private void launchCpuSession(Executor launches) {
        AtomicBoolean ran = new AtomicBoolean();
        try {
            launches.execute(() -> {
                ran.set(true);
                launch(SessionTrigger.CPU, settings.duration());
            });
        } catch (RuntimeException | OutOfMemoryError e) {
            if (ran.get()) {
                throw e; // the launch ran (on this thread) and has already ended its reservation
            }
            launchFailed(SessionTrigger.CPU, e); // no thread to launch on: it fails like a launch that threw
        }
    }

    private void checkWatchdog(Instant now) {
        RunningSession s = active;
        if (s.isDone()) {
            return; // its outcome callback is on its way
        }
        Instant deadline = s.startedAt().plus(s.duration()).plus(settings.watchdogGrace());
        if (now.isAfter(deadline)) {
            String reason = "session did not end within " + s.duration().plus(settings.watchdogGrace())
                    + "; cancelled by the trigger policy";
            log.warn("Profiling session {} {}", s.id(), reason);
            try {
                s.cancel(reason);
            } catch (RuntimeException e) {
                log.warn("Cancelling session {} failed", s.id(), e);
            }
            ended(s, SessionOutcome.failed(reason, now));
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
        Objects.requireNonNull(duration, "duration");
        synchronized (this) {
            // A CPU-triggered launch under way: wait for its session, which is then the one already running.
            if (shutDownReason == null && !awaitLaunch()) {
                throw new IllegalStateException("profiling session could not start: interrupted while another "
                        + "session was being launched");
            }
            if (shutDownReason != null) {
                throw new IllegalStateException("profiling session could not start: " + shutDownReason);
            }
            RunningSession s = active;
            if (s != null) {
                // Also when it is done but its end is not yet recorded: its cooldown must not be lost.
                throw new SessionAlreadyRunningException(s);
            }
            launching = true;
        }
        log.info("Starting an on-demand profiling session for {}", duration);
        Launch launch = launch(SessionTrigger.MANUAL, duration);
        if (launch.session() == null) {
            // The reason alone: it already says what could not record and why (the endpoint's 503 shows it).
            throw new IllegalStateException(launch.failure().reason());
        }
        return launch.session();
    }

    /** Waits, holding the lock, until no launch is under way; false if interrupted first. */
    private boolean awaitLaunch() {
        while (launching) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** What a launch gave: the session, or why there is none. */
    private record Launch(RunningSession session, SessionOutcome failure) {
    }

    /**
     * Launches the session reserved by {@code launching}, without holding the lock, and records it, or records it
     * failed. A session launched after a shutdown began (its wait was interrupted) is cancelled at once.
     */
    private Launch launch(SessionTrigger trigger, Duration duration) {
        RunningSession s;
        try {
            s = launcher.launch(trigger, duration);
        } catch (RuntimeException | LinkageError e) {
            return new Launch(null, launchFailed(trigger, e));
        } catch (Error e) {
            endLaunch(); // never stay reserved
            throw e;
        }
        String cancel;
        synchronized (this) {
            active = s;
            launching = false;
            notifyAll();
            cancel = shutDownReason;
        }
        s.outcome().whenComplete((outcome, error) -> ended(s,
                outcome != null ? outcome : SessionOutcome.failed("session failed: " + error, clock.instant())));
        if (cancel != null) {
            s.cancel(cancel);
        }
        return new Launch(s, null);
    }

    /** Records a launch that failed (a CPU-triggered one starts a cooldown) and ends the reservation. */
    private SessionOutcome launchFailed(SessionTrigger trigger, Throwable e) {
        Instant now = clock.instant();
        String reason = e instanceof SessionStartException ? e.getMessage() : "session could not start: " + e;
        log.warn("Profiling session ({}) could not start: {}", trigger, reason);
        SessionOutcome outcome = SessionOutcome.failed(reason, now);
        synchronized (this) {
            lastOutcome = outcome;
            if (trigger == SessionTrigger.CPU) {
                cooldownUntil = now.plus(settings.cooldown());
            }
            launching = false;
            notifyAll();
        }
        notifyListeners(trigger, null, outcome);
        return outcome;
    }

    private synchronized void endLaunch() {
        launching = false;
        notifyAll();
    }

    private void ended(RunningSession s, SessionOutcome outcome) {
        synchronized (this) {
            if (active != s) {
                return; // already ended (watchdog)
            }
            active = null;
            lastOutcome = outcome;
            if (s.trigger() == SessionTrigger.CPU) {
                cooldownUntil = outcome.endedAt().plus(settings.cooldown());
                log.info("CPU-triggered session {} ended {}{}; cooldown until {}", s.id(), outcome.status(),
                        outcome.reason() == null ? "" : " (" + outcome.reason() + ")", cooldownUntil);
            } else {
                log.info("On-demand session {} ended {}{}", s.id(), outcome.status(),
                        outcome.reason() == null ? "" : " (" + outcome.reason() + ")");
            }
        }
        notifyListeners(s.trigger(), s, outcome);
    }

    private void notifyListeners(SessionTrigger trigger, RunningSession s, SessionOutcome outcome) {
        for (SessionEndListener l : listeners) {
            try {
                l.sessionEnded(trigger, s, outcome);
            } catch (RuntimeException e) {
                log.warn("Session end listener {} failed", l, e);
            }
        }
    }

    /** The state now (cooldown expiry is seen at once, not only at the next poll). */
    public synchronized TriggerState state() {
        if (active != null || launching) {
            return TriggerState.PROFILING;
        }
        if (!settings.enabled()) {
            return TriggerState.DISABLED;
        }
        if (cooldownUntil != null && clock.instant().isBefore(cooldownUntil)) {
            return TriggerState.COOLDOWN;
        }
        return TriggerState.MONITORING;
    }

    /**
     * Monitoring has started: the CPU does not trigger for the start-up grace from now (JIT warm-up and caches
     * filling burn CPU that is not an incident). On-demand sessions are not held back.
     */
    public synchronized void monitoringStarted() {
        graceUntil = settings.startupGrace().isZero() ? null : clock.instant().plus(settings.startupGrace());
        if (graceUntil != null) {
            log.debug("CPU trigger held back until {} (start-up grace)", graceUntil);
        }
    }

    /** When the start-up grace ends, if it is in force now. */
    public synchronized Optional<Instant> graceUntil() {
        if (graceUntil != null && clock.instant().isBefore(graceUntil)) {
            return Optional.of(graceUntil);
        }
        return Optional.empty();
    }

    /** When the cooldown ends, if one is in force now. */
    public synchronized Optional<Instant> cooldownUntil() {
        if (cooldownUntil != null && clock.instant().isBefore(cooldownUntil)) {
            return Optional.of(cooldownUntil);
        }
        return Optional.empty();
    }

    /** Time left in the cooldown, if one is in force now. */
    public synchronized Optional<Duration> cooldownRemaining() {
        return cooldownUntil().map(until -> Duration.between(clock.instant(), until));
    }

    /**
     * The session recording, if any. While one is being launched this waits for it (as long as a launch takes): the
     * status then names the session {@link #state()} already counts as profiling. Never called on the polling path.
     */
    public synchronized Optional<RunningSession> activeSession() {
        awaitLaunch();
        return Optional.ofNullable(active);
    }

    /** How the last session ended, if one did. */
    public synchronized Optional<SessionOutcome> lastOutcome() {
        return Optional.ofNullable(lastOutcome);
    }

    /** The last average the policy compared with the threshold; NaN before the first. */
    public synchronized double lastSeenAverage() {
        return lastSeenAverage;
    }

    public TriggerSettings settings() {
        return settings;
    }

    /**
     * Shutdown: cancels the running session, if any, and refuses every session after it (an on-demand start then
     * fails with the reason, a poll does nothing). A launch under way is waited for and cancelled here, so no
     * session outlives the profiler, and no engine recreates the files it cleans up.
     */
    public void shutDown(String reason) {
        synchronized (this) {
            shutDownReason = Objects.requireNonNull(reason, "reason");
            awaitLaunch(); // if interrupted, the launch cancels its own session when it is done
        }
        cancelActive(reason);
    }

    /** Cancels the running session, if any; later sessions may start as usual. */
    public void cancelActive(String reason) {
        RunningSession s;
        synchronized (this) {
            s = active;
        }
        if (s != null && !s.isDone()) {
            s.cancel(reason);
        }
    }
}
