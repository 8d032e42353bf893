package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.RunningSession;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Room for one session: free, reserved while a session is being launched, or held by the session recording. A
 * reference of normal holding it may be superseded: the slot passes straight to a launch reserved in its place, so
 * nothing else takes it in between, and the reference's end, when it comes, is recorded without freeing it. Taking
 * and reading it never waits; only {@link #awaitLaunch()} waits, for a launch under way to end.
 */
final class SessionSlot {

    /**
     * The slot's holder: a launch under way ({@code session} null) or the session it launched, with what completes once
     * that session's end is recorded.
     */
    private record Holder(CompletableFuture<Void> launchEnded, RunningSession session, CompletionStage<?> endRecorded) {
    }

    private final AtomicReference<Holder> holder = new AtomicReference<>();
    private final AtomicReference<RunningSession> superseded = new AtomicReference<>();

    /** Reserves the slot for a launch; false when it is taken. */
    boolean tryReserve() {
        return holder.compareAndSet(null, new Holder(new CompletableFuture<>(), null, null));
    }

    /**
     * Reserves the slot for a launch in place of {@code session}, which holds it: the caller then cancels it, and its
     * end is recorded without freeing the slot ({@link #endSuperseded}).
     *
     * @return what completes once the superseded session's end is recorded; null when it no longer holds the slot
     */
    CompletionStage<?> supersede(RunningSession session) {
        Holder h = holder.get();
        if (h == null || h.session() != session
                || !holder.compareAndSet(h, new Holder(new CompletableFuture<>(), null, null))) {
            return null;
        }
        superseded.set(session);
        return h.endRecorded();
    }

    /** Whether {@code session} was superseded and its end not yet recorded; forgets it. */
    boolean endSuperseded(RunningSession session) {
        return superseded.compareAndSet(session, null);
    }

    /** Whether a launch or a session holds the slot. */
    boolean taken() {
        return holder.get() != null;
    }

    /** Whether a session is being launched. */
    boolean launching() {
        Holder h = holder.get();
        return h != null && h.session() == null;
    }

    /** The session holding the slot, if one does; empty while it is being launched. */
    Optional<RunningSession> session() {
        Holder h = holder.get();
        return h == null ? Optional.empty() : Optional.ofNullable(h.session());
    }

    /**
     * The reserved launch gave this session, which now holds the slot.
     *
     * @param endRecorded completes once the session's end is recorded
     */
    void launched(RunningSession session, CompletionStage<?> endRecorded) {
        Holder reserved = holder.get();
        holder.set(new Holder(reserved.launchEnded(), session, endRecorded));
        reserved.launchEnded().complete(null);
    }

    /** The reserved launch gave no session: the slot is free again. */
    void launchFailed() {
        Holder reserved = holder.getAndSet(null);
        if (reserved != null) {
            reserved.launchEnded().complete(null);
        }
    }

    /** Frees the slot if this session holds it; false when it does not (its end was already recorded). */
    boolean release(RunningSession session) {
        Holder h = holder.get();
        return h != null && h.session() == session && holder.compareAndSet(h, null);
    }

    /** Whether this session holds the slot. */
    boolean heldBy(RunningSession session) {
        Holder h = holder.get();
        return h != null && h.session() == session;
    }

    /** Waits until no launch is under way; false if interrupted first. */
    boolean awaitLaunch() {
        return awaitLaunch(null);
    }

    /** Waits until no launch is under way, at most {@code max} (null: no bound); false if interrupted or timed out. */
    boolean awaitLaunch(Duration max) {
        Holder h = holder.get();
        if (h == null || h.session() != null) {
            return true;
        }
        try {
            if (max == null) {
                h.launchEnded().get();
            } else {
                h.launchEnded().get(max.toNanos(), TimeUnit.NANOSECONDS);
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true; // never completed exceptionally
        }
    }
}
