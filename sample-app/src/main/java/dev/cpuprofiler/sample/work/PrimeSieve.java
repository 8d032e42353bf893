package dev.cpuprofiler.sample.work;

import org.springframework.stereotype.Component;

/**
 * Counts primes with the sieve of Eratosthenes: a tight loop over a {@code boolean[]}, so the profile shows
 * its CPU as the self time of {@link #countPrimes(int)}.
 */
@Component
public class PrimeSieve {

    /** The largest limit one request may ask for (about 100 ms of work here). */
    public static final int MAX_LIMIT = 20_000_000;

    /** The number of primes not greater than {@code limit}. */
    public int countPrimes(int limit) {
        if (limit < 2) {
            return 0;
        }
        boolean[] composite = new boolean[limit + 1];
        int count = 0;
        for (int i = 2; i <= limit; i++) {
            if (!composite[i]) {
                count++;
                for (long j = (long) i * i; j <= limit; j += i) {
                    composite[(int) j] = true;
                }
            }
        }
        return count;
    }
}
