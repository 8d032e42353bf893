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

    /** Samples recorded so far. */
    long samplesSoFar();

    /** Completes once the session has ended, normally or not. Never completes exceptionally. */
    CompletionStage<SessionOutcome> outcome();

    boolean isDone();

    /** Ends the session early (shutdown, watchdog); its outcome follows asynchronously. */
    void cancel(String reason);
}
