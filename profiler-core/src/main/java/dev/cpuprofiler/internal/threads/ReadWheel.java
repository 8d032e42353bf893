package dev.cpuprofiler.internal.threads;

import java.util.ArrayList;
import java.util.List;

/**
 * Which threads are due for a read on which tick, as a timing wheel: one bucket per tick up to the back-off cap, so
 * a tick touches only the threads due on it, not every thread known (with hundreds of parked threads, walking them
 * all each tick costs more than the reads themselves, mostly in cache misses).
 *
 * <p>Ticks must be taken one after the other ({@link #take} for every tick), and nothing may be scheduled more than
 * {@code horizon} ticks ahead.
 */
final class ReadWheel<T> {

    private final List<List<T>> buckets = new ArrayList<>();
    // The list the last take returned; cleared and reused by the next take, so a tick allocates nothing.
    private List<T> spare = new ArrayList<>();

    ReadWheel(int horizon) {
        for (int i = 0; i <= horizon; i++) {
            buckets.add(new ArrayList<>());
        }
    }

    void schedule(T item, long dueTick) {
        buckets.get(bucket(dueTick)).add(item);
    }

    /** Removes and returns the items due on {@code tick}; the list is valid (and the caller's) until the next take. */
    List<T> take(long tick) {
        int b = bucket(tick);
        List<T> due = buckets.get(b);
        if (due.isEmpty()) {
            return due; // most ticks of an idle application: nothing to swap (an empty list: nothing is added to it)
        }
        spare.clear();
        buckets.set(b, spare);
        spare = due;
        return due;
    }

    private int bucket(long tick) {
        return (int) Math.floorMod(tick, (long) buckets.size());
    }
}
