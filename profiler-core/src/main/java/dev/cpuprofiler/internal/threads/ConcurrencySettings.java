package dev.cpuprofiler.internal.threads;

import java.time.Duration;

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
 * @param activeShare the share of one core (0..1) a thread must use since its last read to be read every tick:
 *        threads lighter than that are followed at back-off, their CPU spread over the ticks between reads (it
 *        keeps the cost bounded when hundreds of threads each do a little, and light threads gain little from
 *        exact ticks: their busy time is a small share of any tick, placed at random either way)
 */
record ConcurrencySettings(Duration tick, int maxBackOffTicks, int holdTicks, int listEveryTicks,
        double activeShare) {

    /**
     * A 10 ms tick; a thread that used at least 10% of a core since its last read is read every tick, and stays so
     * until idle for 20 ticks (200 ms); others back off to at most every 64 ticks (640 ms); threads are listed every
     * 25 ticks (250 ms). The caps are what keeps the cost low: with hundreds of parked threads, re-checking idle ones
     * is most of the reads, and a read after a 10 ms sleep costs a few µs (cold caches).
     */
    public static ConcurrencySettings defaults() {
        return new ConcurrencySettings(Duration.ofMillis(10), 64, 20, 25, 0.10);
    }
}
