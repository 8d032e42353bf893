package dev.cpuprofiler.internal.threads;

import java.util.Arrays;

/**
 * Compares each listing of live thread ids with the previous one: which threads are new, which have ended. Works on
 * sorted primitive arrays (a few microseconds for hundreds of threads) so that only the threads that changed are
 * looked up anywhere else.
 */
final class ThreadListing {

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
