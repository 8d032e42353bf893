package dev.cpuprofiler.benchmarks.whatchanged;

/**
 * The CPU work of {@code GET /ledger}: a balance summed over pseudo-random entries, each entry's amount drawn from a
 * linear congruential generator and folded into a running checksum. All its time is its own, in {@link #sum}: the
 * method a profile must name first when ledger requests get costlier.
 */
public final class LedgerKernel {

    private LedgerKernel() {
    }

    /** The balance and checksum of {@code entries} entries (to be consumed). */
    public static long sum(long entries) {
        long seed = 0x9E3779B97F4A7C15L;
        long balance = 0;
        long checksum = 17;
        for (long i = 0; i < entries; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            long amount = (seed >>> 40) - (1L << 23);
            balance += amount;
            checksum = checksum * 31 + (balance ^ (balance >>> 29));
        }
        return balance ^ checksum;
    }
}
