package dev.cpuprofiler.threads;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link ConcurrencySampler} reads threads during a profile.
 *
 * @param tick the fine tick: the resolution of "how many threads ran at once"
 * @param maxBackOffTicks the longest wait, in fine ticks, between two reads of a thread that looked idle: how late
 *        a waking thread can be noticed (its CPU until then is spread over the gap)
 * @param holdTicks how many idle ticks in a row a thread that was running is still read every tick before it backs
 *        off: threads with pauses shorter than that are followed tick by tick, so their busy time can be placed
 *        within ticks; longer pauses cost at most one smeared delta
 * @param listEveryTicks how often, in fine ticks, live threads are listed to find threads started during the profile
 */
public record ConcurrencySettings(Duration tick, int maxBackOffTicks, int holdTicks, int listEveryTicks) {

    public ConcurrencySettings {
        Objects.requireNonNull(tick, "tick");
        if (tick.isNegative() || tick.isZero()) {
            throw new IllegalArgumentException("tick must be positive: " + tick);
        }
        if (maxBackOffTicks < 1 || listEveryTicks < 1 || holdTicks < 0) {
            throw new IllegalArgumentException("tick counts must be at least 1 (hold at least 0): " + maxBackOffTicks
                    + ", " + holdTicks + ", " + listEveryTicks);
        }
    }

    /**
     * A 10 ms tick; a thread that ran is read every tick until it has been idle 20 ticks (200 ms), then backs off
     * to at most every 32 ticks (320 ms); threads are listed every 10 ticks (100 ms).
     */
    public static ConcurrencySettings defaults() {
        return new ConcurrencySettings(Duration.ofMillis(10), 32, 20, 10);
    }
}
