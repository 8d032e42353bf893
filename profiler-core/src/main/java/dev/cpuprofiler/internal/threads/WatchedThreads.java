package dev.cpuprofiler.internal.threads;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.ObjLongConsumer;

/**
 * The threads whose CPU time is read tick by tick, and the read loop over them, shared by {@link ThreadCpuTracker}
 * and {@link ConcurrencyRun}: each thread is due on some tick ({@link ReadWheel}); the due ones are read in one bulk
 * call; one that has ended (a negative time, or missing from a listing) is dropped; each listing of the live threads
 * adds the new ones. What a read means (back-off, deltas, history) is the caller's.
 *
 * <p>Not thread-safe: its owner serialises access.
 *
 * @param <T> what the caller keeps per thread
 */
final class WatchedThreads<T extends WatchedThreads.Entry> {

    /** One watched thread; the caller's subclass keeps its own figures. */
    abstract static class Entry {
        final long id;
        /** Read lazily, when the thread is seen using CPU or is asked about; null until then. */
        String name;
        /** Dropped: still in the wheel, skipped when its tick comes. */
        boolean gone;

        Entry(long id) {
            this.id = id;
        }
    }

    private final ThreadCpuReader reader;
    private final Consumer<T> whenEnded;
    private final Map<Long, T> live = new HashMap<>();
    private final ThreadListing listing = new ThreadListing();
    private final ReadWheel<T> wheel;

    /**
     * @param horizon the most ticks ahead a thread is ever scheduled (the back-off cap)
     * @param whenEnded told of each thread dropped because it ended
     */
    WatchedThreads(ThreadCpuReader reader, int horizon, Consumer<T> whenEnded) {
        this.reader = reader;
        this.whenEnded = whenEnded;
        this.wheel = new ReadWheel<>(horizon);
    }

    /** Takes a listing of the live threads as the first one, without adding anything: for a caller's own baseline. */
    void firstListing(long[] ids) {
        listing.update(ids.clone());
    }

    /**
     * Compares a listing of the live threads ({@code ids}, sorted in place) with the previous one: ended threads are
     * dropped, new ones made by {@code added} and due on {@code dueTick}.
     */
    void list(long[] ids, LongFunction<T> added, long dueTick) {
        ThreadListing.Diff diff = listing.update(ids);
        for (long id : diff.removed()) {
            T t = live.get(id);
            if (t != null) {
                drop(t);
            }
        }
        for (long id : diff.added()) {
            add(added.apply(id), dueTick);
        }
    }

    /** Watches a thread from now on, due on {@code dueTick}. */
    void add(T t, long dueTick) {
        live.put(t.id, t);
        wheel.schedule(t, dueTick);
    }

    /** Schedules a thread's next read; at most the horizon ahead of the tick last read. */
    void schedule(T t, long dueTick) {
        wheel.schedule(t, dueTick);
    }

    /**
     * Reads the threads due on {@code tick} (every tick must be read, in order) in one bulk call: each live one's
     * cumulative CPU time goes to {@code read}, which schedules its next read; one that has ended is dropped. With
     * nothing due, nothing is read at all.
     *
     * @return how many thread CPU times were read
     */
    int readDue(long tick, ObjLongConsumer<T> read) {
        List<T> due = wheel.take(tick); // ours until the next take: compacted in place, nothing allocated
        int kept = 0;
        for (int i = 0, n = due.size(); i < n; i++) {
            T t = due.get(i);
            if (!t.gone) {
                due.set(kept++, t);
            }
        }
        for (int i = due.size() - 1; i >= kept; i--) {
            due.remove(i);
        }
        return kept == 0 ? 0 : read(due, read);
    }

    /** Reads every live thread the same way, whether due or not; nothing is taken from the wheel. */
    int readAll(ObjLongConsumer<T> read) {
        return read(new ArrayList<>(live.values()), read);
    }

    private int read(List<T> due, ObjLongConsumer<T> read) {
        long[] ids = new long[due.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = due.get(i).id;
        }
        long[] cpu = reader.cpuTimes(ids);
        for (int i = 0; i < ids.length; i++) {
            T t = due.get(i);
            if (cpu[i] < 0) {
                drop(t); // ended between the listing and the read: its CPU since its last read is lost
            } else {
                read.accept(t, cpu[i]);
            }
        }
        return ids.length;
    }

    /** Reads the names of these threads in one call; a thread that has ended keeps the name it had. */
    void readNames(List<T> ts) {
        if (ts.isEmpty()) {
            return;
        }
        long[] ids = new long[ts.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = ts.get(i).id; // a loop, not a stream: this runs on the sampler's tick, interpreted
        }
        String[] names = reader.names(ids);
        for (int i = 0; i < ids.length; i++) {
            if (names[i] != null) {
                ts.get(i).name = names[i];
            }
        }
    }

    private void drop(T t) {
        live.remove(t.id);
        t.gone = true;
        whenEnded.accept(t);
    }

    /** The live thread with this id, or null. */
    T get(long id) {
        return live.get(id);
    }

    /** The live threads (a view). */
    Collection<T> live() {
        return live.values();
    }

    int size() {
        return live.size();
    }

    /**
     * Which threads are due for a read on which tick, as a timing wheel: one bucket per tick up to the back-off cap, so
     * a tick touches only the threads due on it, not every thread known (with hundreds of parked threads, walking them
     * all each tick costs more than the reads themselves, mostly in cache misses).
     *
     * <p>Ticks must be taken one after the other ({@link #take} for every tick), and nothing may be scheduled more than
     * {@code horizon} ticks ahead.
     */
    private static final class ReadWheel<T> {

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

        /** Removes and returns the items due on {@code tick}; the list is the caller's until the next take. */
        List<T> take(long tick) {
            int b = bucket(tick);
            List<T> due = buckets.get(b);
            if (due.isEmpty()) {
                // Most ticks of an idle application: nothing to swap (an empty list: nothing is added to it).
                return due;
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

    /**
     * Compares each listing of live thread ids with the previous one: which threads are new, which have ended. Works on
     * sorted primitive arrays (a few microseconds for hundreds of threads) so that only the threads that changed are
     * looked up anywhere else.
     */
    static final class ThreadListing {

        private long[] previous = new long[0];

        /**
         * @param live this listing's ids (sorted in place)
         * @return the new ids ({@code added}) and the ended ones ({@code removed}) since the previous listing
         */
        Diff update(long[] live) {
            Arrays.sort(live);
            long[] added = new long[live.length];
            long[] removed = new long[previous.length];
            int a = 0;
            int r = 0;
            int i = 0;
            int j = 0;
            while (i < live.length || j < previous.length) {
                if (j == previous.length || i < live.length && live[i] < previous[j]) {
                    added[a++] = live[i++];
                } else if (i == live.length || previous[j] < live[i]) {
                    removed[r++] = previous[j++];
                } else {
                    i++;
                    j++;
                }
            }
            previous = live;
            return new Diff(Arrays.copyOf(added, a), Arrays.copyOf(removed, r));
        }

        /** @param added ids new since the previous listing; @param removed ids gone since then */
        record Diff(long[] added, long[] removed) {
        }
    }
}
