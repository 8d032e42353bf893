package dev.cpuprofiler.internal.threads;

import java.util.Arrays;

/**
 * Turns per-tick, per-thread CPU deltas into a histogram t(k) of how long k threads ran at once, with bounds on the
 * time at least one ran.
 *
 * <p>Within a tick only each thread's busy time b is known, not when in the tick it ran. The estimator places it:
 * <ul>
 * <li>a thread that was busy (≥ {@value #EDGE_BUSY} of the tick) in the previous tick and not in the next one had
 * just been running, so it is put at the start of the tick (it stopped); busy in the next tick and not the previous
 * one: at the end (it started); busy in both: split between both ends (a short pause in the middle);</li>
 * <li>any other thread (a short burst, or steadily partial work) is "unanchored": modelled as running at random
 * moments of the tick, independently of the others ({@link TickConcurrency}).</li>
 * </ul>
 * Deciding needs the next tick, so ticks are finished {@code lag} ticks late; the lag also lets a delta that spans
 * several ticks (a thread read only every few ticks) be spread back over them, unanchored.
 *
 * <p>No more threads can run at once than there are CPUs (C): where the model puts more, the surplus CPU time must
 * have run at other moments of the tick, and is moved to the least busy ones (idle time first).
 *
 * <p>Bounds: in a tick, the time with at least one thread running is at least max(max_i b_i, Σ b_i / C) and at
 * most min(L, Σ b_i). A delta spread over several ticks adds at most its total to the upper bound and nothing to
 * the lower one (it may have run entirely alongside the others).
 */
final class ConcurrencyEstimator {

    /** A neighbouring tick at or above this share of busy time means the thread was running across the edge. */
    static final double EDGE_BUSY = 0.8;

    /**
     * Spread shares at most this share of a tick are pooled: n light independent threads running with
     * probabilities p_i are counted as one Poisson(Σ p_i) (Le Cam: off by at most Σ p_i² ≤ LIGHT · Σ p_i in total
     * variation), which keeps hundreds of light threads cheap.
     */
    static final double LIGHT = 0.1;

    private final TickRecord[] ring;
    private long opened; // ticks opened so far; the current one is opened - 1
    private long finished; // ticks finished so far

    private final int cpus;
    private double[] histogram = new double[4];
    private double[] scratch = new double[4];
    private double total;
    private double lower;
    private double upperExact;
    private double spreadTotal;

    /**
     * @param lag how many ticks a delta may reach back over (the longest gap between two reads of a thread)
     * @param cpus C, how many threads can run at once (the CPUs the process can run on)
     */
    ConcurrencyEstimator(int lag, int cpus) {
        if (lag < 1 || cpus < 1) {
            throw new IllegalArgumentException("lag and cpus must be at least 1: " + lag + ", " + cpus);
        }
        this.cpus = cpus;
        ring = new TickRecord[lag + 2];
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new TickRecord();
        }
    }

    /** Opens the next tick, {@code lengthNanos} long; ticks that can no longer change are finished first. */
    void tick(long lengthNanos) {
        if (opened > 0) {
            record(opened - 1).close();
        }
        // Tick k needs tick k + 1 closed and no delta reaching back to it any more.
        while (opened - finished > ring.length - 2) {
            finish(finished);
        }
        record(opened).open(lengthNanos);
        opened++;
    }

    /** A thread read at the end of the previous tick and now: it was busy {@code busyNanos} during this tick. */
    void exact(long threadId, long busyNanos) {
        requireOpen();
        if (busyNanos > 0) {
            record(opened - 1).addExact(threadId, busyNanos);
        }
    }

    /**
     * A thread last read {@code ticks} ticks ago (ticks ≥ 2): its {@code busyNanos} are spread over this tick and the
     * {@code ticks - 1} before it, in proportion to their lengths, as unanchored shares. A span reaching back past
     * the finished ticks is cut to the ticks still open (its busy time is kept, on those).
     */
    void spread(int ticks, long busyNanos) {
        requireOpen();
        if (busyNanos <= 0) {
            return;
        }
        long first = Math.max(Math.max(finished, opened - ticks), opened - (ring.length - 1));
        double span = 0;
        for (long k = first; k < opened; k++) {
            span += record(k).length;
        }
        for (long k = first; k < opened; k++) {
            TickRecord r = record(k);
            double share = span > 0 ? busyNanos * (r.length / span) : (double) busyNanos / (opened - first);
            r.addSpread(share);
        }
    }

    /** Finishes every tick and returns the totals so far. */
    Totals finishAll() {
        if (opened > 0) {
            record(opened - 1).close();
        }
        while (finished < opened) {
            finish(finished);
        }
        return new Totals(total, histogram.clone(), lower, Math.min(total, upperExact + spreadTotal));
    }

    private void finish(long k) {
        TickRecord r = record(k);
        TickRecord prev = k > 0 && k - 1 >= finished - 1 && k - 1 >= opened - ring.length ? record(k - 1) : null;
        TickRecord next = k + 1 < opened ? record(k + 1) : null;
        double length = r.length;
        if (length > 0) {
            r.place(prev, next);
            Arrays.fill(scratch, 0);
            scratch = TickConcurrency.add(scratch, length, r.starts, r.ends, r.anchored, r.probabilities,
                    r.unanchored, r.lightSpread / length);
            TickConcurrency.fold(scratch, cpus);
            if (histogram.length < scratch.length) {
                histogram = Arrays.copyOf(histogram, scratch.length);
            }
            for (int running = 0; running < scratch.length; running++) {
                histogram[running] += scratch[running];
            }
            total += length;
            lower += Math.max(r.maxExact(), Math.min(length, r.sumExact() / cpus));
            upperExact += Math.min(length, r.sumExact());
            spreadTotal += r.sumSpread();
        }
        finished = k + 1;
    }

    private TickRecord record(long k) {
        return ring[(int) (k % ring.length)];
    }

    private void requireOpen() {
        if (opened == 0) {
            throw new IllegalStateException("no tick opened");
        }
    }

    /**
     * @param totalNanos the time covered, T
     * @param histogram t(k) in nanoseconds, index k
     * @param lowerNanos a lower bound on the time with at least one thread running
     * @param upperNanos an upper bound on it
     */
    record Totals(double totalNanos, double[] histogram, double lowerNanos, double upperNanos) {
    }

    /** One tick: its length, the exact deltas (sorted by thread id once closed), the spread shares. */
    private static final class TickRecord {
        double length;
        long[] ids = new long[8];
        double[] busy = new double[8];
        int exact;
        double[] spread = new double[4];
        int spreads;
        // Spread shares under LIGHT of the tick, summed: many light independent threads act as one Poisson count.
        double lightSpread;
        double spreadSum;
        // Placement, filled when finished.
        double[] starts = new double[8];
        double[] ends = new double[8];
        int anchored;
        double[] probabilities = new double[8];
        int unanchored;

        void open(long lengthNanos) {
            length = Math.max(0, lengthNanos);
            exact = 0;
            spreads = 0;
            lightSpread = 0;
            spreadSum = 0;
            anchored = 0;
            unanchored = 0;
        }

        void addExact(long id, long busyNanos) {
            if (exact == ids.length) {
                ids = Arrays.copyOf(ids, exact * 2);
                busy = Arrays.copyOf(busy, exact * 2);
            }
            ids[exact] = id;
            busy[exact] = busyNanos;
            exact++;
        }

        void addSpread(double share) {
            spreadSum += share;
            if (share <= LIGHT * length) {
                lightSpread += share;
                return;
            }
            if (spreads == spread.length) {
                spread = Arrays.copyOf(spread, spreads * 2);
            }
            spread[spreads++] = share;
        }

        /** Sorts the exact deltas by thread id (insertion sort: reads come in nearly the same order every tick). */
        void close() {
            for (int i = 1; i < exact; i++) {
                long id = ids[i];
                double b = busy[i];
                int j = i - 1;
                while (j >= 0 && ids[j] > id) {
                    ids[j + 1] = ids[j];
                    busy[j + 1] = busy[j];
                    j--;
                }
                ids[j + 1] = id;
                busy[j + 1] = b;
            }
        }

        /** This thread's share of the tick, 0 if it had no exact delta here. */
        double share(long id) {
            int i = Arrays.binarySearch(ids, 0, exact, id);
            return i < 0 || length <= 0 ? 0 : busy[i] / length;
        }

        void place(TickRecord prev, TickRecord next) {
            for (int i = 0; i < exact; i++) {
                double b = Math.min(length, busy[i]);
                boolean before = prev != null && prev.share(ids[i]) >= EDGE_BUSY;
                boolean after = next != null && next.share(ids[i]) >= EDGE_BUSY;
                if (before && after) {
                    anchor(0, b / 2);
                    anchor(length - b / 2, length);
                } else if (before) {
                    anchor(0, b);
                } else if (after) {
                    anchor(length - b, length);
                } else {
                    unanchor(b / length);
                }
            }
            for (int i = 0; i < spreads; i++) {
                unanchor(Math.min(1, spread[i] / length));
            }
        }

        private void anchor(double start, double end) {
            if (anchored == starts.length) {
                starts = Arrays.copyOf(starts, anchored * 2);
                ends = Arrays.copyOf(ends, anchored * 2);
            }
            starts[anchored] = start;
            ends[anchored] = end;
            anchored++;
        }

        private void unanchor(double p) {
            if (unanchored == probabilities.length) {
                probabilities = Arrays.copyOf(probabilities, unanchored * 2);
            }
            probabilities[unanchored++] = p;
        }

        double maxExact() {
            double max = 0;
            for (int i = 0; i < exact; i++) {
                max = Math.max(max, Math.min(length, busy[i]));
            }
            return max;
        }

        double sumExact() {
            double sum = 0;
            for (int i = 0; i < exact; i++) {
                sum += Math.min(length, busy[i]);
            }
            return sum;
        }

        double sumSpread() {
            return spreadSum;
        }
    }
}
