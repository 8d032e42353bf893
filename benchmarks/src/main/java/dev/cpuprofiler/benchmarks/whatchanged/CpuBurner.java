package dev.cpuprofiler.benchmarks.whatchanged;

import java.util.function.LongToDoubleFunction;

/**
 * Spends an exact amount of the calling thread's CPU time in one kernel ({@link ThreadCpuClock}, not wall time: a
 * request's cost must not depend on how busy the machine is, nor on the thread model). It runs the kernel in calls
 * sized by the kernel's speed as last measured: 80% of what remains, at most {@link #MAX_CALL_NANOS} (a millisecond:
 * the clock is read about once a millisecond, a few µs of every thousand, so nearly every sample of a request lands in
 * the kernel itself). A call overshoots only when the kernel runs 25% slower than last measured, and then by at most
 * a fraction of {@link #MAX_CALL_NANOS}: on a virtual machine whose host takes the CPU away mid-call, the guest counts
 * the lost time as the thread's CPU (requests asked for 100 ms once averaged 132 ms by the clock, with calls of 80 ms:
 * what the cap is for).
 */
final class CpuBurner {

    /** The longest kernel call, in CPU time at the last measured speed. */
    static final long MAX_CALL_NANOS = 1_000_000;
    /** The shortest kernel call, in CPU time at the last measured speed. */
    static final long MIN_CALL_NANOS = 20_000;
    /**
     * The shortest call whose speed is kept: a call of tens of µs can seem 40% faster than the kernel runs, and the
     * next calls, sized by it, would overshoot.
     */
    private static final long MEASURING_CALL_NANOS = 500_000;

    private final LongToDoubleFunction kernel;
    private volatile double iterationsPerNano = 0.01; // a first guess, slow: the first calls measure the truth
    private volatile double sink;

    /** @param kernel runs the given number of iterations and returns something derived from them */
    CpuBurner(LongToDoubleFunction kernel) {
        this.kernel = kernel;
    }

    /** Burns {@code cpuNanos} of this thread's CPU in the kernel; returns what it burned (a little more). */
    long burn(long cpuNanos) {
        long start = ThreadCpuClock.now();
        long target = start + cpuNanos;
        long now = start;
        double consumed = 0;
        while (now < target) {
            double speed = iterationsPerNano;
            long iterations = (long) (Math.max(MIN_CALL_NANOS, Math.min(MAX_CALL_NANOS, 0.8 * (target - now)))
                    * speed);
            long before = now;
            consumed += kernel.applyAsDouble(Math.max(1, iterations));
            now = ThreadCpuClock.now();
            if (now - before >= MEASURING_CALL_NANOS) { // a short call's speed is as noisy as the clock's reads
                iterationsPerNano = iterations / (double) (now - before);
            }
        }
        sink = consumed;
        return now - start;
    }
}
