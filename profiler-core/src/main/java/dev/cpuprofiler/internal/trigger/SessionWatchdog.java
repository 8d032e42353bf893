package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.RunningSession;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The last resort against a session that never ends: one still running {@code grace} past its duration is overdue,
 * and the coordinator cancels it and counts it as failed.
 */
final class SessionWatchdog {

    private final Duration grace;

    SessionWatchdog(Duration grace) {
        this.grace = grace;
    }

    /** Why this session is overdue at {@code now}, or empty. A session already done is never overdue. */
    Optional<String> overdue(RunningSession s, Instant now) {
        if (s.isDone()) {
            return Optional.empty(); // its outcome callback is on its way
        }
        if (now.isAfter(s.startedAt().plus(s.duration()).plus(grace))) {
            return Optional.of("session did not end within " + s.duration().plus(grace)
                    + "; cancelled by the trigger policy");
        }
        return Optional.empty();
    }
}
