package dev.cpuprofiler.session;

import dev.cpuprofiler.core.CpuProfilerOptions;
import dev.cpuprofiler.core.EngineChoice;
import java.time.Duration;

/**
 * How sessions record.
 *
 * @param engine which engine, or auto
 * @param samplingPeriod interval between stack samples
 * @param maxStackDepth deepest stack kept
 * @param maxTreeNodes most nodes in a tree
 * @param groupByThread whether the tree's first level is the thread
 */
public record SessionSettings(EngineChoice engine, Duration samplingPeriod, int maxStackDepth, int maxTreeNodes,
        boolean groupByThread) {

    public static SessionSettings from(CpuProfilerOptions o) {
        return new SessionSettings(o.getEngine(), o.getStackSamplingPeriod(), o.getMaxStackDepth(),
                o.getMaxTreeNodes(), o.isGroupByThread());
    }
}
