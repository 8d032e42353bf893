package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.internal.threads.SaturationReading;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a reference of normal gives way: to an incident or an on-demand profile, which take its slot and wait for its
 * engine to let go, and to a rise, which cancels it with nothing in its place. Its profile is then not kept (what it
 * recorded was no calm moment, or is cut short), and it is tried again later. The coordinator's part of the reference.
 */
final class ReferenceGivingWay {

    private static final Logger log = LoggerFactory.getLogger(ReferenceGivingWay.class);

    private final SessionSlot slot;
    private final ReentrantLock decisions;
    private final TriggerDecision decision;
    private final BooleanSupplier rising;

    ReferenceGivingWay(SessionSlot slot, ReentrantLock decisions, TriggerDecision decision, BooleanSupplier rising) {
        this.slot = slot;
        this.decisions = decisions;
        this.decision = decision;
        this.rising = rising;
    }

    /**
     * The least time between a failed or cancelled reference and the next attempt. A launch that fails (no engine, the
     * disk at its floor) costs a thread, an engine probe and a log line, so a broken engine tried at every calm poll
     * (every 5 s) would cost an idle application more than the reference itself; every 5 minutes it costs at most 12
     * cheap attempts an hour, and a reference cancelled by an incident is retried well before its hourly refresh.
     */
    public static final Duration RETRY_AFTER = Duration.ofMinutes(5);

    /**
     * The longest a session that cancels a reference waits for it to end: a cancelled recording stops and deletes its
     * file in well under a second, so only a hung engine reaches it (the session then starts all the same, and finds
     * the engine busy).
     */
    public static final Duration PREEMPT_WAIT = Duration.ofSeconds(5);

    /**
     * Takes the slot from the reference of normal holding it, for a launch in its place, and cancels it: its profile is
     * not kept (what it recorded was no calm moment, or is cut short), and it is tried again later. Under the
     * decisions lock, so that its end is recorded either before (the slot is then free) or as superseded.
     *
     * @return what completes once its end is recorded; null when it no longer holds the slot
     */
    CompletionStage<?> supersede(RunningSession reference, String why) {
        decisions.lock();
        try {
            CompletionStage<?> ended = slot.supersede(reference);
            if (ended == null) {
                return null;
            }
            log.debug("Cancelling the reference of normal {}: {}", reference.id(), why);
            try {
                reference.cancel(why);
            } catch (RuntimeException e) {
                log.warn("Cancelling the reference of normal {} failed", reference.id(), e);
            }
            return ended;
        } finally {
            decisions.unlock();
        }
    }

    /**
     * Cancels the recording reference once the application is no longer calm: what it records is no normal, and the
     * look-back, which steps aside for every session, resumes (and arms, on a rise) once its end is recorded.
     */
    void cancelIfNotCalm(RunningSession reference, OptionalDouble avg, Optional<SaturationReading> hottest) {
        String unrest = decision.unrest(avg, hottest, rising.getAsBoolean());
        if (unrest != null) {
            String why = "the application is no longer calm: " + unrest;
            log.debug("Cancelling the reference of normal {}: {}", reference.id(), why);
            try {
                reference.cancel(why);
            } catch (RuntimeException e) {
                log.warn("Cancelling the reference of normal {} failed", reference.id(), e);
            }
        }
    }

    /**
     * Waits, {@link #PREEMPT_WAIT} at most, until the end of the reference a launch superseded is recorded: its engine
     * has let go, and the look-back that its end resumes has been told before the new session takes the engine.
     */
    static void awaitSuperseded(CompletionStage<?> ended) {
        if (ended == null) {
            return;
        }
        try {
            ended.toCompletableFuture().get(PREEMPT_WAIT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("The reference of normal cancelled for a new session did not end within {}; the session starts "
                    + "all the same", PREEMPT_WAIT);
        }
    }
}
