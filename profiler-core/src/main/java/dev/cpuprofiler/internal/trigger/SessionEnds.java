package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionEndListener;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionStartException;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What follows a session's end, or a launch that gave none: a cooldown after a session the profiler started by
 * itself (an on-demand one starts none), for a reference of normal its time or, when it failed
 * or was cancelled, the wait before the next attempt, the slot freed (unless a superseded reference ends: the slot is
 * already another's), then the listeners told (the look-back among them, which reads the cooldown; one failing
 * neither stops the others nor the coordinator). Recorded under the coordinator's decision lock, so a poll sees an end
 * whole.
 */
final class SessionEnds {

    private static final Logger log = LoggerFactory.getLogger(SessionEnds.class);

    private final List<SessionEndListener> listeners = new CopyOnWriteArrayList<>();
    private final SessionSlot slot;
    private final Holds holds;
    private final Duration cooldown;
    private final Duration latencyCooldown;
    private final Duration referenceRetry;
    private final ReentrantLock decisions;
    private final BooleanSupplier cpuOwns;
    // A reference that cannot start is said at WARN once, then at DEBUG until one is recorded: it is retried.
    private boolean referenceFailing;

    /**
     * @param cooldown how long a CPU or saturation session holds those triggers back after it ends
     * @param latencyCooldown how long a LATENCY session holds the latency trigger back after it ends
     * @param referenceRetry how long a failed or cancelled reference holds the next attempt back
     * @param decisions the lock the coordinator decides under
     * @param cpuOwns whether the CPU trigger owns the moment ({@link TriggerDecision#cpuOwns}): a LATENCY session that
     *        ends then was that incident's profile, and starts the CPU trigger's cooldown too
     */
    SessionEnds(SessionSlot slot, Holds holds, Duration cooldown, Duration latencyCooldown, Duration referenceRetry,
            ReentrantLock decisions, BooleanSupplier cpuOwns) {
        this.slot = Objects.requireNonNull(slot, "slot");
        this.holds = Objects.requireNonNull(holds, "holds");
        this.cooldown = Objects.requireNonNull(cooldown, "cooldown");
        this.latencyCooldown = Objects.requireNonNull(latencyCooldown, "latencyCooldown");
        this.referenceRetry = Objects.requireNonNull(referenceRetry, "referenceRetry");
        this.decisions = Objects.requireNonNull(decisions, "decisions");
        this.cpuOwns = Objects.requireNonNull(cpuOwns, "cpuOwns");
    }

    void addListener(SessionEndListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** The reserved launch failed at {@code now}: the slot is free again. */
    SessionOutcome launchFailed(SessionTrigger trigger, Throwable e, Instant now) {
        // The reason is served (the session's outcome): an unexpected exception's text, which may hold a path,
        // goes only to the log.
        String reason = e instanceof SessionStartException ? e.getMessage() : "session could not start ("
                + EngineUnavailableException.unexpected(e) + ")";
        SessionOutcome outcome = SessionOutcome.failed(reason, now);
        decisions.lock();
        try {
            if (trigger != SessionTrigger.REFERENCE) {
                log.warn("Profiling session ({}) could not start: {}", trigger, reason,
                        e instanceof SessionStartException ? null : e);
            } else if (!referenceFailing) {
                referenceFailing = true;
                log.warn("The reference of normal could not start: {}; tried again while calm, every {} at most",
                        reason, referenceRetry, e instanceof SessionStartException ? null : e);
            } else {
                log.debug("The reference of normal could not start again: {}", reason);
            }
            if (trigger.automatic()) {
                startCooldown(trigger, now);
            }
            if (trigger == SessionTrigger.REFERENCE) {
                holds.referenceFailed(now.plus(referenceRetry));
            }
            slot.launchFailed();
        } finally {
            decisions.unlock();
        }
        tell(trigger, null, outcome);
        return outcome;
    }

    /**
     * The session holding the slot, or a reference superseded in it, ended so; nothing if its end was already recorded
     * (by the watchdog).
     */
    void ended(RunningSession s, SessionOutcome outcome) {
        decisions.lock();
        try {
            boolean holder = slot.heldBy(s);
            if (!holder && !slot.endSuperseded(s)) {
                return;
            }
            if (s.trigger() == SessionTrigger.REFERENCE) {
                referenceEnded(s, outcome);
            } else if (s.trigger().automatic()) {
                Instant until = startCooldown(s.trigger(), outcome.endedAt());
                log.info("{}-triggered session {} ended {}{}; cooldown until {}", s.trigger(), s.id(), outcome.status(),
                        outcome.reason() == null ? "" : " (" + outcome.reason() + ")", until);
            } else {
                log.info("On-demand session {} ended {}{}", s.id(), outcome.status(),
                        outcome.reason() == null ? "" : " (" + outcome.reason() + ")");
            }
            if (holder) {
                slot.release(s); // last: a poll that finds the slot free finds the cooldown too
            }
        } finally {
            decisions.unlock();
        }
        tell(s.trigger(), s, outcome);
    }

    /** The cooldown of the trigger that started a session, from {@code end}; until when it holds. */
    private Instant startCooldown(SessionTrigger trigger, Instant end) {
        if (trigger == SessionTrigger.LATENCY) {
            Instant until = end.plus(latencyCooldown);
            holds.startLatencyCooldown(until);
            if (cpuOwns.getAsBoolean()) {
                // The CPU rose past the threshold while it recorded: its profile is that incident's too.
                Instant cpuUntil = end.plus(cooldown);
                holds.startCooldown(cpuUntil);
                log.info("The CPU average is above the threshold as the LATENCY session ends: its profile is the CPU "
                        + "incident's too; the CPU trigger's cooldown runs until {}", cpuUntil);
            }
            return until;
        }
        Instant until = end.plus(cooldown);
        holds.startCooldown(until);
        return until;
    }

    /** A reference recorded is in force from its end; one that failed or was cancelled waits to be tried again. */
    private void referenceEnded(RunningSession s, SessionOutcome outcome) {
        if (outcome.failed()) {
            Instant retry = outcome.endedAt().plus(referenceRetry);
            holds.referenceFailed(retry);
            log.debug("Reference of normal {} not kept ({}); the next attempt not before {}", s.id(),
                    outcome.reason(), retry);
        } else {
            referenceFailing = false;
            holds.referenceRecorded(outcome.endedAt());
            log.debug("Reference of normal {} in force from {}", s.id(), outcome.endedAt());
        }
    }

    private void tell(SessionTrigger trigger, RunningSession session, SessionOutcome outcome) {
        for (SessionEndListener l : listeners) {
            try {
                l.sessionEnded(trigger, session, outcome);
            } catch (RuntimeException e) {
                log.warn("Session end listener {} failed", l, e);
            }
        }
    }
}
