package dev.cpuprofiler.internal.testing;

import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/** A session the test ends by hand. */
public final class FakeSession implements RunningSession {

    private final String id;
    private final SessionTrigger trigger;
    private final Instant startedAt;
    private final Duration duration;
    private final CompletableFuture<SessionOutcome> outcome = new CompletableFuture<>();
    private volatile String cancelReason;
    private volatile String stopEarlyReason;
    private volatile Clock endsWhenCancelled;
    private volatile Executor endsOn = Runnable::run;

    public FakeSession(String id, SessionTrigger trigger, Instant startedAt, Duration duration) {
        this.id = id;
        this.trigger = trigger;
        this.startedAt = startedAt;
        this.duration = duration;
    }

    /** From now on, cancelling it ends it at once, failed, as a real session's thread does. */
    public FakeSession endsWhenCancelled(Clock clock) {
        return endsWhenCancelled(clock, Runnable::run);
    }

    /** From now on, cancelling it ends it, failed, on {@code endsOn}: as a real session's thread does, in its time. */
    public FakeSession endsWhenCancelled(Clock clock, Executor endsOn) {
        this.endsOn = endsOn;
        endsWhenCancelled = clock;
        return this;
    }

    public void complete(Instant at) {
        outcome.complete(new SessionOutcome(SessionOutcome.Status.COMPLETED, null, at, id));
    }

    public void fail(String reason, Instant at) {
        outcome.complete(SessionOutcome.failed(reason, at));
    }

    public String cancelReason() {
        return cancelReason;
    }

    public String stopEarlyReason() {
        return stopEarlyReason;
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
        return "fake";
    }

    @Override
    public Duration elapsed() {
        return Duration.ZERO;
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
    public long samplesSoFar() {
        return 0;
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
        Clock clock = endsWhenCancelled;
        if (clock != null) {
            endsOn.execute(() -> fail("cancelled: " + reason, clock.instant()));
        }
    }

    @Override
    public void stopEarly(String reason) {
        stopEarlyReason = reason;
    }
}
