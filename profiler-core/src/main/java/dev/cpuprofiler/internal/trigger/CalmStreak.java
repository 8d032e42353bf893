package dev.cpuprofiler.internal.trigger;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Since when every poll has found the application calm enough for a reference of normal, and whether that is long
 * enough: a reference records a steady state, never the first seconds of a change. Without it a reference started at
 * the first calm poll after the start-up grace or after an idle stretch, which is often the first second of a rise
 * the look-back has not yet seen: the reference then held the engine the look-back needed for the incident that
 * followed. A poll that is not calm, or that does not ask, breaks the streak. Used on the polling thread only.
 */
final class CalmStreak {

    private final Duration settle;
    private long poll;
    private long lastCalmPoll = Long.MIN_VALUE;
    private Instant since;

    /** @param settle how long the application must have been calm, at every poll, before a reference starts */
    CalmStreak(Duration settle) {
        this.settle = Objects.requireNonNull(settle, "settle");
    }

    /** A new poll: unless it finds the application calm, the streak is broken. */
    void nextPoll() {
        poll++;
    }

    /** This poll found the application calm at {@code now}; whether it has been for the whole settle time. */
    boolean calmAndSettled(Instant now) {
        if (since == null || lastCalmPoll != poll - 1) {
            since = now;
        }
        lastCalmPoll = poll;
        return !now.isBefore(since.plus(settle));
    }

    /** Since when the application has been calm, as the last calm poll saw it. */
    Instant since() {
        return since;
    }

    /** When the streak will be long enough, as the last calm poll saw it. */
    Instant settlesAt() {
        return since.plus(settle);
    }
}
