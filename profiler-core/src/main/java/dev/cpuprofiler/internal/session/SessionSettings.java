package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.EngineChoice;
import java.time.Duration;
import java.util.Objects;

/**
 * How sessions record.
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

    /** Settings whose recordings carry no system information, naming up to 100 endpoints. */
    public SessionSettings(EngineChoice engine, Duration samplingPeriod, int maxStackDepth, int maxTreeNodes,
            boolean groupByThread) {
        this(engine, samplingPeriod, maxStackDepth, maxTreeNodes, groupByThread, false, 100);
    }

    public SessionSettings {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(samplingPeriod, "samplingPeriod");
        if (samplingPeriod.isNegative() || samplingPeriod.isZero()) {
            throw new IllegalArgumentException("samplingPeriod must be positive, was " + samplingPeriod);
        }
        if (maxStackDepth < 1 || maxTreeNodes < 1) {
            throw new IllegalArgumentException("maxStackDepth and maxTreeNodes must be positive, were "
                    + maxStackDepth + " and " + maxTreeNodes);
        }
    }
}
