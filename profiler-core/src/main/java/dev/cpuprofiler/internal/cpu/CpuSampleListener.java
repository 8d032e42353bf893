package dev.cpuprofiler.internal.cpu;

/** Told of every CPU sample, on the sampler's own thread: must be quick and must not block. */
@FunctionalInterface
public interface CpuSampleListener {

    /**
     * @param nanoTime the ticker's reading at the sample
     * @param cpuTimeNanos the source's cumulative CPU time, with any counter reset already smoothed out
     *        (it never goes backwards here)
     * @param percent CPU% over the last sampling interval, 0..100, or NaN on the first sample
     */
    void onSample(long nanoTime, long cpuTimeNanos, double percent);
}
