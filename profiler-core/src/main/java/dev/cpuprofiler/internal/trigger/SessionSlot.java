package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.RunningSession;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Room for one session: free, reserved while a session is being launched, or held by the session recording. Taking
 * and reading it never waits; only {@link #awaitLaunch()} waits, for a launch under way to end.
 */
final class SessionSlot {

    /** The slot's holder: a launch under way ({@code session} null) or the session it launched. */
    private record Holder(CompletableFuture<Void> launchEnded, RunningSession session) {
    }

    private final AtomicReference<Holder> holder = new AtomicReference<>();

    /** Reserves the slot for a launch; false when it is taken. */
    boolean tryReserve() {
        return holder.compareAndSet(null, new Holder(new CompletableFuture<>(), null));
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

    /** The reserved launch gave this session, which now holds the slot. */
    void launched(RunningSession session) {
        Holder reserved = holder.get();
        holder.set(new Holder(reserved.launchEnded(), session));
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
