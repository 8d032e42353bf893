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
 */
public final class CpuTriggerPolicy {

    private static final Logger log = LoggerFactory.getLogger(CpuTriggerPolicy.class);

    private final TriggerSettings settings;
    private final Supplier<OptionalDouble> average;
    private final SessionLauncher launcher;
    private final Clock clock;
    private final List<SessionEndListener> listeners = new CopyOnWriteArrayList<>();

    private RunningSession active;
    private Instant cooldownUntil;
    private SessionOutcome lastOutcome;
    private double lastSeenAverage = Double.NaN;
    private String shutDownReason; // why no session may start any more (the profiler is closing), or null

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

    /** One policy check. Called every polling interval; never throws. */
    public void poll() {
        try {
            doPoll();
        } catch (RuntimeException e) {
            log.warn("CPU trigger policy check failed; next check in one polling interval", e);
        }
    }

    private synchronized void doPoll() {
        if (shutDownReason != null) {
            return;
        }
        Instant now = clock.instant();
        if (active != null) {
            checkWatchdog(now);
            if (active != null) {
                log.debug("Session {} is recording; not checking CPU", active.id());
                return;
            }
        }
        if (!settings.enabled()) {
            log.debug("CPU trigger disabled (profiler.cpu.enabled=false); not checking CPU");
            return;
        }
        if (cooldownUntil != null) {
            if (now.isBefore(cooldownUntil)) {
                log.debug("In cooldown until {} ({} left); not checking CPU", cooldownUntil,
                        Duration.between(now, cooldownUntil));
                return;
            }
            log.debug("Cooldown ended at {}; monitoring again", cooldownUntil);
            cooldownUntil = null;
        }
        OptionalDouble avg = average.get();
        if (avg.isEmpty()) {
            log.debug("Getting current CPU usage: no baseline yet (first rolling interval not complete)");
            return;
        }
        double value = avg.getAsDouble();
        lastSeenAverage = value;
        log.debug("Getting current CPU usage: {}", String.format("%.1f", value));
        if (value > settings.thresholdPercent()) {
            log.info("CPU average {}% is above the threshold {}%: starting a CPU-triggered profiling session for {}",
                    String.format("%.1f", value), String.format("%.1f", settings.thresholdPercent()),
                    settings.duration());
            start(SessionTrigger.CPU, settings.duration());
        } else {
            log.debug("CPU average {}% is not above the threshold {}%: not profiling", String.format("%.1f", value),
                    String.format("%.1f", settings.thresholdPercent()));
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
            if (shutDownReason != null) {
                throw new IllegalStateException("profiling session could not start: " + shutDownReason);
            }
            RunningSession s = active;
            if (s != null) {
                // Also when it is done but its end is not yet recorded: its cooldown must not be lost.
                throw new SessionAlreadyRunningException(s);
            }
            log.info("Starting an on-demand profiling session for {}", duration);
            RunningSession started = start(SessionTrigger.MANUAL, duration);
            if (started == null) {
                // The reason alone: it already says what could not record and why (the endpoint's 503 shows it).
                throw new IllegalStateException(lastOutcome == null ? "the profiling session could not start"
                        : lastOutcome.reason());
            }
            return started;
        }
    }

    /** Launches a session, or records a failed one. Holds the lock. */
    private RunningSession start(SessionTrigger trigger, Duration duration) {
        RunningSession s;
        try {
            s = launcher.launch(trigger, duration);
        } catch (RuntimeException | LinkageError e) {
            Instant now = clock.instant();
            String reason = e instanceof SessionStartException ? e.getMessage() : "session could not start: " + e;
            log.warn("Profiling session ({}) could not start: {}", trigger, reason);
            SessionOutcome outcome = SessionOutcome.failed(reason, now);
            lastOutcome = outcome;
            if (trigger == SessionTrigger.CPU) {
                cooldownUntil = now.plus(settings.cooldown());
            }
            notifyListeners(trigger, null, outcome);
            return null;
        }
        active = s;
        s.outcome().whenComplete((outcome, error) -> ended(s,
                outcome != null ? outcome : SessionOutcome.failed("session failed: " + error, clock.instant())));
        return s;
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
        if (active != null) {
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

    public synchronized Optional<RunningSession> activeSession() {
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
     * fails with the reason, a poll does nothing). A launch under way finishes first (it holds the lock) and is
     * cancelled here, so no session outlives the profiler, and no engine recreates the files it cleans up.
     */
    public void shutDown(String reason) {
        synchronized (this) {
            shutDownReason = Objects.requireNonNull(reason, "reason");
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
