package dev.cpuprofiler.internal.threads;

import java.util.Arrays;

/**
 * Within one tick of length L: how long exactly k threads ran, given where some threads' busy time is known to sit
 * (anchored intervals) and only how much of the tick the others used (probabilities p = busy / L).
 *
 * <p>Unanchored threads are modelled as running at independent, uniformly random moments of the tick: at any
 * instant thread j runs with probability p_j, so the number of them running is Poisson-binomial. Added to the count
 * of anchored intervals covering that instant, this gives t(k). Whatever the placement, Σ k·t(k) equals the busy
 * time put in (so utilization does not depend on the model); only how the busy time overlaps does.
 */
final class TickConcurrency {

    /** Beyond this many unanchored threads running at once, the count is lumped into the last bin. */
    static final int MAX_RUNNING = 512;

    private static final double NEGLIGIBLE = 1e-12;

    private TickConcurrency() {
    }

    /**
     * Adds this tick's t(k), in nanoseconds, to {@code histogram} (index k), growing it as needed.
     *
     * @param starts anchored interval starts within [0, length], any order; {@code ends} the matching ends
     * @param anchored how many entries of {@code starts}/{@code ends} are used
     * @param probabilities each unanchored thread's share of the tick, 0..1; {@code unanchored} how many are used
     * @return the histogram (a new array if it had to grow)
     */
    static double[] add(double[] histogram, double length, double[] starts, double[] ends, int anchored,
            double[] probabilities, int unanchored) {
        return add(histogram, length, starts, ends, anchored, probabilities, unanchored, 0);
    }

    /** Same, with more unanchored threads pooled as a Poisson count of mean {@code poissonMean}. */
    static double[] add(double[] histogram, double length, double[] starts, double[] ends, int anchored,
            double[] probabilities, int unanchored, double poissonMean) {
        double[] q = convolve(poissonBinomial(probabilities, unanchored), poisson(poissonMean));
        double[] s = Arrays.copyOf(starts, anchored);
        double[] e = Arrays.copyOf(ends, anchored);
        Arrays.sort(s);
        Arrays.sort(e);
        // Sweep: between consecutive interval edges the anchored count c is constant.
        int i = 0;
        int j = 0;
        int c = 0;
        double at = 0;
        while (at < length) {
            double next = Math.min(length, Math.min(i < anchored ? s[i] : length, j < anchored ? e[j] : length));
            if (next > at) {
                histogram = spread(histogram, c, next - at, q);
                at = next;
            }
            // Ends first at a shared position, so back-to-back intervals do not look like an overlap.
            if (j < anchored && e[j] <= at) {
                c--;
                j++;
            } else if (i < anchored && s[i] <= at) {
                c++;
                i++;
            } else if (next >= length) {
                break;
            }
        }
        return histogram;
    }

    private static double[] spread(double[] histogram, int anchoredRunning, double duration, double[] q) {
        int needed = Math.min(MAX_RUNNING, anchoredRunning + q.length - 1) + 1;
        if (histogram.length < needed) {
            histogram = Arrays.copyOf(histogram, Math.max(needed, histogram.length * 2));
        }
        for (int m = 0; m < q.length; m++) {
            if (q[m] > 0) {
                histogram[Math.min(MAX_RUNNING, anchoredRunning + m)] += duration * q[m];
            }
        }
        return histogram;
    }

    /**
     * Caps a tick's histogram at {@code cpus} threads running at once: time placed at k > C becomes time at C, and
     * the CPU time that did not fit, Σ (k - C)·t(k), is moved to the least busy moments (time at k becomes time at
     * k + 1, idle time first), as a scheduler runs a waiting thread as soon as a CPU is free. Σ k·t(k) is kept
     * unless the tick holds more CPU time than C cores could run (clock jitter), which is dropped.
     */
    static void fold(double[] histogram, int cpus) {
        double surplus = 0;
        for (int k = cpus + 1; k < histogram.length; k++) {
            if (histogram[k] > 0) {
                surplus += (k - cpus) * histogram[k];
                histogram[cpus] += histogram[k];
                histogram[k] = 0;
            }
        }
        for (int k = 0; k < cpus && surplus > 0; k++) {
            double moved = Math.min(histogram[k], surplus);
            histogram[k] -= moved;
            histogram[k + 1] += moved;
            surplus -= moved;
        }
    }

    /** Poisson probabilities for m = 0, 1, ... up to where they are negligible. */
    static double[] poisson(double mean) {
        if (!(mean > 0)) {
            return new double[] {1};
        }
        double[] q = new double[MAX_RUNNING + 1];
        q[0] = Math.exp(-mean);
        int m = 0;
        while (m < MAX_RUNNING && (m < mean || q[m] > NEGLIGIBLE)) {
            q[m + 1] = q[m] * mean / (m + 1);
            m++;
        }
        return Arrays.copyOf(q, m + 1);
    }

    /** The distribution of the sum of two independent counts, capped at {@link #MAX_RUNNING}. */
    static double[] convolve(double[] a, double[] b) {
        if (b.length == 1) {
            return a;
        }
        double[] c = new double[Math.min(MAX_RUNNING, a.length + b.length - 2) + 1];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < b.length; j++) {
                c[Math.min(c.length - 1, i + j)] += a[i] * b[j];
            }
        }
        return c;
    }

    /**
     * q[m] = probability that exactly m of the independent threads run at a given instant. The tail is cut where
     * it is negligible (below {@value #NEGLIGIBLE}), so hundreds of light threads cost about n × (a few) steps, not
     * n².
     */
    static double[] poissonBinomial(double[] p, int n) {
        int size = Math.min(n, MAX_RUNNING) + 1;
        double[] q = new double[size];
        q[0] = 1;
        int top = 0;
        for (int t = 0; t < n; t++) {
            double pt = Math.min(1, Math.max(0, p[t]));
            if (pt == 0) {
                continue;
            }
            if (top < size - 1 && q[top] * pt > NEGLIGIBLE) {
                top++;
                q[top] = q[top - 1] * pt;
            } else if (top > 0) {
                q[top] += q[top - 1] * pt; // the top bin means "top or more": at the cap, or a negligible tail
            } else {
                continue; // a thread that (practically) never runs
            }
            for (int m = top - 1; m >= 1; m--) {
                q[m] = q[m] * (1 - pt) + q[m - 1] * pt;
            }
            q[0] *= 1 - pt;
        }
        return Arrays.copyOf(q, top + 1);
    }
}
