package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.EngineChoice;
import java.time.Duration;

/**
 * How sessions record: the options' values they take, checked there.
 *
 * @param engine which engine, or auto
 * @param samplingPeriod interval between stack samples
 * @param maxStackDepth deepest stack kept
 * @param maxTreeNodes most nodes in a tree
 * @param groupByThread whether the tree's first level is the thread
 * @param includeSystemInfo whether the engine's recording also carries the JVM's system information
 * @param maxEndpoints most endpoints a profile names
 */
public record SessionSettings(EngineChoice engine, Duration samplingPeriod, int maxStackDepth, int maxTreeNodes,
        boolean groupByThread, boolean includeSystemInfo, int maxEndpoints) {

    public static SessionSettings of(CpuProfilerOptions o) {
        return new SessionSettings(o.getEngine(), o.getStackSamplingPeriod(), o.getMaxStackDepth(),
                o.getMaxTreeNodes(), o.isGroupByThread(), o.getJfr().isIncludeSystemInfo(), o.getMaxEndpoints());
    }
}
