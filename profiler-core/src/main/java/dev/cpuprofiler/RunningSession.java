package dev.cpuprofiler;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;

/** A profiling session under way. */
public interface RunningSession {

    String id();

    SessionTrigger trigger();

    /** The engine recording it, e.g. {@code jfr-execution}. */
    String engine();

    Instant startedAt();

    Duration duration();

    /** How long it has recorded so far, by the profiler's clock (never negative). */
    Duration elapsed();

    /** Samples recorded so far. */
    long samplesSoFar();

    /** Completes once the session has ended, normally or not. Never completes exceptionally. */
    CompletionStage<SessionOutcome> outcome();

    boolean isDone();

    /** Ends the session early and throws its recording away (watchdog); its outcome follows asynchronously. */
    void cancel(String reason);

    /**
     * Ends the session now and keeps what it recorded (shutdown): its profile is stored as any other, lasts as long as
     * it recorded, and its first note gives the reason; the outcome, completed with that reason, follows
     * asynchronously. Does nothing once the session is ending.
     */
    void stopEarly(String reason);
}
