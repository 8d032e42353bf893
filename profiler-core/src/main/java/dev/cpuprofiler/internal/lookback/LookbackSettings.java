package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;
import java.util.Objects;

/**
 * How the look-back records.
 *
 * @param window how far back it reaches: the samples of at most this long before a session starts; 1 s to 10 min
 * @param samplingPeriod the period of its own sampler, coarser than a session's to stay cheap; 10 ms to 1 s
 * @param weightUnit the sampling period of the profiles it is merged into: each look-back sample weighs
 *     {@code samplingPeriod / weightUnit} of their samples, so shares stay comparable across both parts
 * @param maxStackDepth frames kept per sample, as in the sessions' trees
 * @param maxTreeNodes nodes the whole ring may hold (split evenly over its buckets); what does not fit is counted
 *     under {@code [truncated]}, not lost
 * @param groupByThread as in the sessions' trees: look-back trees merge into them path by path, thread level included
 */
public record LookbackSettings(Duration window, Duration samplingPeriod, Duration weightUnit, int maxStackDepth,
        int maxTreeNodes, boolean groupByThread) {

    // The limits the options check (profiler.cpu.lookback, lookback-sampling-period), declared there once.
    public static final Duration MIN_WINDOW = CpuProfilerOptions.MIN_LOOKBACK;
    public static final Duration MAX_WINDOW = CpuProfilerOptions.MAX_LOOKBACK;
    public static final Duration MIN_PERIOD = CpuProfilerOptions.MIN_LOOKBACK_SAMPLING_PERIOD;
    public static final Duration MAX_PERIOD = CpuProfilerOptions.MAX_LOOKBACK_SAMPLING_PERIOD;
    public static final Duration DEFAULT_PERIOD = CpuProfilerOptions.DEFAULT_LOOKBACK_SAMPLING_PERIOD;
    /**
     * The ring's node budget unless the sessions' own limit is smaller: about 4.5 MB when every frame is distinct
     * (LookbackRingTest), about 100 KB measured for a busy application with repeating stacks.
     */
    public static final int DEFAULT_MAX_TREE_NODES = 44_000;

    public LookbackSettings {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(samplingPeriod, "samplingPeriod");
        Objects.requireNonNull(weightUnit, "weightUnit");
        if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            throw new IllegalArgumentException("window " + window + " is not between " + MIN_WINDOW + " and "
                    + MAX_WINDOW);
        }
        if (samplingPeriod.compareTo(MIN_PERIOD) < 0 || samplingPeriod.compareTo(MAX_PERIOD) > 0) {
            throw new IllegalArgumentException("samplingPeriod " + samplingPeriod + " is not between " + MIN_PERIOD
                    + " and " + MAX_PERIOD);
        }
        if (weightUnit.isNegative() || weightUnit.isZero()) {
            throw new IllegalArgumentException("weightUnit must be positive, was " + weightUnit);
        }
        if (maxStackDepth < 3) {
            throw new IllegalArgumentException("maxStackDepth must be at least 3, was " + maxStackDepth);
        }
        if (maxTreeNodes < 100) {
            throw new IllegalArgumentException("maxTreeNodes must be at least 100, was " + maxTreeNodes);
        }
    }
}
