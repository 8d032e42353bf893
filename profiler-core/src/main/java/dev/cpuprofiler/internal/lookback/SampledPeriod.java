package dev.cpuprofiler.internal.lookback;

import java.time.Duration;

/**
 * The period JFR's CPU-time sampler runs at, told by the periods its samples say. A sample says the period in force
 * times one plus the timer's overruns (JDK 25's jfrCPUTimeThreadSampler.cpp: {@code period * (si_overrun + 1)}): on a
 * busy machine a signal that came late stands for 20 or 30 ms of a 10 ms period. That sample weighs what it says,
 * but the period in force is the finest one the recent samples say: lower at once, higher only once a whole batch of
 * samples says so (the recording that imposed a finer period has ended). Written by one thread, the stream's; read
 * by any.
 */
final class SampledPeriod {

    static final int BATCH = 16;

    private volatile Duration inForce;
    private Duration batchFinest;
    private int inBatch;

    /** One sample's period (the stream's thread only). */
    void add(Duration said) {
        if (inForce == null || said.compareTo(inForce) < 0) {
            inForce = said;
        }
        if (batchFinest == null || said.compareTo(batchFinest) < 0) {
            batchFinest = said;
        }
        if (++inBatch == BATCH) {
            inForce = batchFinest;
            batchFinest = null;
            inBatch = 0;
        }
    }

    /** The period in force, or null before the first sample. */
    Duration inForce() {
        return inForce;
    }
}
