package dev.cpuprofiler.internal.threads;

/**
 * When to read one thread's CPU time next, in ticks: a thread that used CPU since its last read is read again
 * on the next tick; one that did not waits twice as long as last time (1, 2, 4, ... ticks, up to a cap). Hundreds
 * of parked threads then cost a few reads per tick, and a thread that wakes up is back to every tick as soon as a
 * read catches it (at most {@code cap} ticks late).
 *
 * <p>A {@code hold} keeps a thread at every tick for that many idle reads before it starts backing off: at a fine
 * tick a thread with short pauses (waiting its turn for a lock, between bursts) keeps being read tick by tick,
 * which is what lets its busy time be placed within ticks.
 */
final class ReadBackOff {

    /**
     * A thread counts as having used CPU when it used at least this share of one core since its last read. Not
     * zero: thread CPU clocks count nanoseconds, and a parked thread that wakes for a few microseconds (a timed
     * poll) should still back off.
     */
    static final double ACTIVE_SHARE = 0.01;

    private final int cap;
    private final int hold;
    private int interval = 1;
    private int idleReads;
    private long dueTick;

    /** Backs off from the first idle read. */
    ReadBackOff(int cap, long firstDueTick) {
        this(cap, 0, firstDueTick);
    }

    /**
     * @param cap the longest interval, in ticks
     * @param hold how many idle reads in a row are still followed by a read on the next tick
     * @param firstDueTick the tick of the first read
     */
    ReadBackOff(int cap, int hold, long firstDueTick) {
        if (cap < 1 || hold < 0) {
            throw new IllegalArgumentException("back-off cap must be at least 1 tick and hold at least 0: " + cap
                    + ", " + hold);
        }
        this.cap = cap;
        this.hold = hold;
        this.dueTick = firstDueTick;
    }

    /** A back-off that starts at its cap: for threads already known to be idle, staggered by {@code firstDueTick}. */
    static ReadBackOff atCap(int cap, int hold, long firstDueTick) {
        ReadBackOff b = new ReadBackOff(cap, hold, firstDueTick);
        b.interval = cap;
        b.idleReads = hold;
        return b;
    }

    /** Whether {@code cpuDelta} over {@code wallDelta} is enough to keep reading the thread every tick. */
    static boolean active(long cpuDelta, long wallDelta) {
        return active(cpuDelta, wallDelta, ACTIVE_SHARE);
    }

    /** Same with another threshold: at least {@code share} (0..1) of one core since the last read. */
    static boolean active(long cpuDelta, long wallDelta, double share) {
        return cpuDelta > 0 && cpuDelta >= share * Math.max(0, wallDelta);
    }

    /** The tick of the next read. */
    long dueTick() {
        return dueTick;
    }

    /** Records a read at {@code tick}; {@code active} says whether the thread used CPU since the read before. */
    void read(long tick, boolean active) {
        if (active) {
            idleReads = 0;
            interval = 1;
        } else if (++idleReads > hold) {
            interval = Math.min(cap, interval * 2);
        }
        dueTick = tick + interval;
    }

    /** Records a first read, which shows nothing yet (a delta needs two): read again next tick. */
    void firstRead(long tick) {
        interval = 1;
        dueTick = tick + 1;
    }

    /** Ticks between the last read and the next. */
    int interval() {
        return interval;
    }
}
