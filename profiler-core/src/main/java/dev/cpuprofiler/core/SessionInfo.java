package dev.cpuprofiler.core;

import dev.cpuprofiler.session.RunningSession;
import dev.cpuprofiler.session.SessionTrigger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/** A snapshot of the running session. */
public record SessionInfo(String id, SessionTrigger trigger, String engine, Instant startedAt, Duration duration,
        Duration elapsed, long samples) {

    public static SessionInfo of(RunningSession s, Clock clock) {
        Duration elapsed = Duration.between(s.startedAt(), clock.instant());
        return new SessionInfo(s.id(), s.trigger(), s.engine(), s.startedAt(), s.duration(),
                elapsed.isNegative() ? Duration.ZERO : elapsed, s.samplesSoFar());
    }
}
