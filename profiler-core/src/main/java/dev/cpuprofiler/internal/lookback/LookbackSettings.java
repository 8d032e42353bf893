package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;

/**
 * How the look-back records: the options' values, checked there, and the sessions' it merges into.
 *
 * @param window how far back it reaches: the samples of at most this long before a session starts
 * @param samplingPeriod the period of its own sampler, coarser than a session's to stay cheap
 * @param weightUnit the sampling period of the profiles it is merged into: each look-back sample weighs
 *     {@code samplingPeriod / weightUnit} of their samples, so shares stay comparable across both parts
 * @param maxStackDepth frames kept per sample, as in the sessions' trees
 * @param maxTreeNodes nodes the whole ring may hold (split evenly over its buckets); what does not fit is counted
 *     under {@code [truncated]}, not lost
 * @param groupByThread as in the sessions' trees: look-back trees merge into them path by path, thread level included
 */
public record LookbackSettings(Duration window, Duration samplingPeriod, Duration weightUnit, int maxStackDepth,
        int maxTreeNodes, boolean groupByThread) {

    public static final Duration DEFAULT_PERIOD = new CpuProfilerOptions().getLookbackSamplingPeriod();
    /**
     * The ring's node budget unless the sessions' own limit is smaller: about 4.5 MB when every frame is distinct
     * (LookbackRingTest), about 100 KB measured for a busy application with repeating stacks.
     */
    public static final int DEFAULT_MAX_TREE_NODES = 44_000;

    /** Look-back for the sessions these options describe: same depth, threads and weight unit. */
    public static LookbackSettings of(CpuProfilerOptions o) {
        return new LookbackSettings(o.getLookback(), o.getLookbackSamplingPeriod(), o.getStackSamplingPeriod(),
                o.getMaxStackDepth(), Math.min(o.getMaxTreeNodes(), DEFAULT_MAX_TREE_NODES), o.isGroupByThread());
    }
}
