package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.session.SessionLauncher;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How a slot the {@link SessionCoordinator} reserved becomes a running session: the launch (the look-back hands over,
 * an engine starts: a second or more) runs without any lock on the thread an {@link Executor} gives it, after the
 * reference it superseded has let go, and its session is recorded in the slot with its end, or the launch is recorded
 * failed. A launch that has no thread to run on fails like one that threw.
 */
final class SessionLaunches {

    private final SessionLauncher launcher;
    private final SessionSlot slot;
    private final SessionEnds ends;
    private final Holds holds;
    private final Clock clock;

    SessionLaunches(SessionLauncher launcher, SessionSlot slot, SessionEnds ends, Holds holds, Clock clock) {
        this.launcher = launcher;
        this.slot = slot;
        this.ends = ends;
        this.holds = holds;
        this.clock = clock;
    }

    /** What a launch gave: the session, or why there is none. */
    record Launch(RunningSession session, SessionOutcome failure) {
    }

    /**
     * Hands the reserved automatic launch to {@code launches}, without waiting for it.
     *
     * @param superseded completes once the reference it cancelled has ended, or null
     */
    void automatic(SessionTrigger trigger, Duration duration, CompletionStage<?> superseded, Executor launches) {
        AtomicBoolean ran = new AtomicBoolean();
        try {
            launches.execute(() -> {
                ran.set(true);
                ReferenceGivingWay.awaitSuperseded(superseded);
                launch(trigger, duration);
            });
        } catch (RuntimeException | OutOfMemoryError e) {
            if (ran.get()) {
                throw e; // the launch ran (on this thread) and has already ended its reservation
            }
            ends.launchFailed(trigger, e, clock.instant()); // no thread to launch on: it fails like a launch that threw
        }
    }

    /**
     * Runs the reserved on-demand launch on {@code launches} and waits for it.
     *
     * @param superseded completes once the reference it cancelled has ended, or null
     */
    Launch onDemand(Duration duration, CompletionStage<?> superseded, Executor launches) {
        CompletableFuture<Launch> launched = new CompletableFuture<>();
        try {
            launches.execute(() -> {
                try {
                    ReferenceGivingWay.awaitSuperseded(superseded);
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
            return new Launch(null, ends.launchFailed(SessionTrigger.MANUAL, e, clock.instant()));
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

    /**
     * Launches the session the slot is reserved for, without any lock, and records it, or records it failed. A
     * session launched after a shutdown began is stopped at once, keeping what it recorded.
     */
    private Launch launch(SessionTrigger trigger, Duration duration) {
        RunningSession s;
        try {
            s = launcher.launch(trigger, duration);
        } catch (RuntimeException | LinkageError e) {
            return new Launch(null, ends.launchFailed(trigger, e, clock.instant()));
        } catch (Error e) {
            slot.launchFailed(); // never stay reserved
            throw e;
        }
        CompletableFuture<Void> endRecorded = new CompletableFuture<>();
        slot.launched(s, endRecorded);
        s.outcome().whenComplete((outcome, error) -> {
            try {
                ends.ended(s, outcome != null ? outcome
                        : SessionOutcome.failed("session failed: " + error, clock.instant()));
            } finally {
                endRecorded.complete(null);
            }
        });
        // Read after the slot names the session: a shutdown that began before sees it and stops it, or this does.
        if (holds.isShutDown()) {
            s.stopEarly(CpuProfiler.CUT_SHORT_BY_SHUTDOWN);
        }
        return new Launch(s, null);
    }
}
