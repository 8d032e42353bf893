package dev.cpuprofiler.internal.requests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * How long every request took, by endpoint, over a rolling window: what the latency trigger judges, always on. Each
 * endpoint keeps one histogram per slot of the window (four buckets per doubling, from 100 µs to about 28 minutes, so
 * a percentile read at a bucket's middle is within 10% of the truth); a request costs a map lookup and an atomic
 * increment or two, and an endpoint 768 bytes a slot once it is seen. At most {@code maxEndpoints} names are kept:
 * later ones are not counted, nor a request that ends just as its slot is cleared for reuse.
 */
public final class EndpointLatencies {

    static final int SUB_BUCKETS = 4;
    /** The first bucket's upper bound: requests faster than 100 µs all land in it. */
    static final long FIRST_BOUND_NANOS = 100_000;
    static final int BUCKETS = 24 * SUB_BUCKETS;

    private final long slotNanos;
    private final int windowSlots;
    private final int slots;
    private final int maxEndpoints;
    private final LongSupplier nanoTime;
    private final Map<String, Endpoint> endpoints = new ConcurrentHashMap<>();

    /**
     * @param window how far back {@link #window} looks, in whole slots
     * @param longestSession the longest span {@link #last} is asked for: a session's
     * @param slot the granularity: a window ends at the last full slot, and the current one is partial
     * @param nanoTime the monotonic clock ({@code System::nanoTime} in production)
     */
    public EndpointLatencies(Duration window, Duration longestSession, Duration slot, int maxEndpoints,
            LongSupplier nanoTime) {
        this.slotNanos = slot.toNanos();
        this.windowSlots = (int) Math.max(1, window.toNanos() / slotNanos);
        // The window's full slots, or a session's and the one it began in, and the current one.
        this.slots = Math.max(windowSlots, (int) ceilDiv(longestSession.toNanos(), slotNanos) + 1) + 1;
        this.maxEndpoints = maxEndpoints;
        this.nanoTime = nanoTime;
    }

    /** A request to {@code name} ended after {@code nanos}. Never throws. */
    public void record(String name, long nanos) {
        if (name == null || nanos < 0) {
            return;
        }
        Endpoint e = endpoints.get(name);
        if (e == null) {
            if (endpoints.size() >= maxEndpoints) {
                return;
            }
            e = endpoints.computeIfAbsent(name, n -> new Endpoint(slots));
        }
        e.add(nanoTime.getAsLong() / slotNanos, bucket(nanos));
    }

    /** The bucket of a duration: four per doubling above {@link #FIRST_BOUND_NANOS}. */
    static int bucket(long nanos) {
        if (nanos <= FIRST_BOUND_NANOS) {
            return 0;
        }
        double doublings = Math.log((double) nanos / FIRST_BOUND_NANOS) / Math.log(2);
        return (int) Math.min(BUCKETS - 1, Math.ceil(doublings * SUB_BUCKETS));
    }

    /** A bucket's upper bound. */
    static double upperNanos(int bucket) {
        return FIRST_BOUND_NANOS * Math.pow(2, (double) bucket / SUB_BUCKETS);
    }

    /** A bucket's geometric middle; the first bucket's bound for the first. */
    static double middleNanos(int bucket) {
        return bucket == 0 ? FIRST_BOUND_NANOS : upperNanos(bucket) / Math.pow(2, 0.5 / SUB_BUCKETS);
    }

    /** Each endpoint's requests over the window's full slots (the current, partial one left out), any order. */
    public List<Window> window() {
        return over(windowSlots, false);
    }

    /**
     * Each endpoint's requests over the last {@code span} (a session's), in whole slots: the current partial one and
     * as many before it as the span reaches into, so a little more than the span.
     */
    public List<Window> last(Duration span) {
        return over((int) Math.min(slots, ceilDiv(span.toNanos(), slotNanos) + 1), true);
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }

    private List<Window> over(int slotCount, boolean withCurrent) {
        long current = nanoTime.getAsLong() / slotNanos;
        long last = withCurrent ? current : current - 1;
        List<Window> out = new ArrayList<>();
        endpoints.forEach((name, e) -> {
            long[] counts = e.sum(last - slotCount + 1, last);
            long total = 0;
            for (long c : counts) {
                total += c;
            }
            if (total > 0) {
                out.add(new Window(name, counts, total));
            }
        });
        return out;
    }

    /**
     * One endpoint's requests over a window, as a histogram of their durations.
     *
     * @param requests how many ended in it
     */
    public record Window(String endpoint, long[] counts, long requests) {

        /** The requests that took longer than {@code nanos} (counted by bucket: within a bucket's width). */
        public long slowerThan(long nanos) {
            long slow = 0;
            for (int b = bucket(nanos) + 1; b < counts.length; b++) {
                slow += counts[b];
            }
            return slow;
        }

        /** The mean duration, in ms, each request at its bucket's middle. */
        public double meanMillis() {
            double sum = 0;
            for (int b = 0; b < counts.length; b++) {
                sum += counts[b] * middleNanos(b);
            }
            return requests == 0 ? 0 : sum / requests / 1e6;
        }

        /** The duration under which {@code fraction} (0..1) of the requests ended, in ms: its bucket's middle. */
        public double percentileMillis(double fraction) {
            long rank = (long) Math.ceil(fraction * requests);
            long seen = 0;
            for (int b = 0; b < counts.length; b++) {
                seen += counts[b];
                if (seen >= rank && counts[b] > 0) {
                    return middleNanos(b) / 1e6;
                }
            }
            return middleNanos(counts.length - 1) / 1e6;
        }
    }

    /** One endpoint's histograms, one per slot, reused in turn: a slot's array is cleared when a new slot takes it. */
    private static final class Endpoint {

        private final AtomicLongArray counts;
        private final AtomicLongArray slotOf;
        private final int slots;

        Endpoint(int slots) {
            this.slots = slots;
            this.counts = new AtomicLongArray(slots * BUCKETS);
            this.slotOf = new AtomicLongArray(slots);
            for (int i = 0; i < slots; i++) {
                slotOf.set(i, Long.MIN_VALUE);
            }
        }

        void add(long slot, int bucket) {
            int i = (int) Math.floorMod(slot, slots);
            long held = slotOf.get(i);
            if (held != slot) {
                if (held > slot || !slotOf.compareAndSet(i, held, slot)) {
                    // Another thread moved it on (a request ending exactly at a slot's turn): counted there instead.
                    if (slotOf.get(i) != slot) {
                        return;
                    }
                } else {
                    for (int b = 0; b < BUCKETS; b++) {
                        counts.set(i * BUCKETS + b, 0);
                    }
                }
            }
            counts.incrementAndGet(i * BUCKETS + bucket);
        }

        long[] sum(long from, long to) {
            long[] out = new long[BUCKETS];
            for (int i = 0; i < slots; i++) {
                long s = slotOf.get(i);
                if (s >= from && s <= to) {
                    for (int b = 0; b < BUCKETS; b++) {
                        out[b] += counts.get(i * BUCKETS + b);
                    }
                }
            }
            return out;
        }
    }
}
