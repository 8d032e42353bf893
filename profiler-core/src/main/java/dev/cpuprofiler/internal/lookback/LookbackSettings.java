package dev.cpuprofiler.internal.lookback;

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

    public static final Duration MIN_WINDOW = Duration.ofSeconds(1);
    public static final Duration MAX_WINDOW = Duration.ofMinutes(10);
    public static final Duration MIN_PERIOD = Duration.ofMillis(10);
    public static final Duration MAX_PERIOD = Duration.ofSeconds(1);
    /**
     * 50 ms: what an armed look-back costs is mostly JFR's sampler waking each period and walking the thread list
     * (jdk.ExecutionSample, JDK 17-24: ~170 µs a wake-up with 50 threads), so the period sets the price: 20 ms took
     * 0.7-1.0% of a core on a busy 2-CPU app, 50 ms 0.45% (LookbackOverheadMeasure). A 30 s window still holds 600
     * samples per busy thread, enough to name what pushed the CPU up.
     */
    public static final Duration DEFAULT_PERIOD = Duration.ofMillis(50);
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
