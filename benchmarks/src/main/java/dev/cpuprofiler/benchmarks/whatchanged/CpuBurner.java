package dev.cpuprofiler.benchmarks.whatchanged;

import java.util.function.LongToDoubleFunction;

/**
 * Spends an exact amount of the calling thread's CPU time in one kernel ({@link ThreadCpuClock}, not wall time: a
 * request's cost must not depend on how busy the machine is, nor on the thread model). It runs the kernel in a few
 * calls sized by the kernel's speed as last measured (80% of what remains, then 80% of the rest, ...), so the clock is
 * read about six times a request, as rarely as an application would, and nearly every sample of a request lands in
 * the kernel itself; a call overshoots only when the kernel runs 25% slower than last measured, and the last one by at
 * most {@link #MIN_CALL_NANOS}. Reading the clock every millisecond instead (calls capped at 1 ms) made the profiles
 * blame the clock's reads and the lambda around the kernel, and left jfr-cpu-time (JDK 25) with a sixth of the
 * requests' samples: the kernel must run the way application code does.
 */
final class CpuBurner {

    /** The shortest kernel call, in CPU time at the last measured speed. */
    static final long MIN_CALL_NANOS = 20_000;
    /**
     * The shortest call whose speed is kept: a call of tens of µs can seem 40% faster than the kernel runs, and the
     * next request's first call, sized by it, would overshoot by a tenth.
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
            long iterations = (long) (Math.max(MIN_CALL_NANOS, 0.8 * (target - now)) * speed);
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
