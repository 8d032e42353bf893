package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.internal.engine.EngineLock;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/** The look-back as its tests build it: from options, or armed from the start; and a hand-over's samples at once. */
final class TestRecorders {

    private TestRecorders() {
    }

    /**
     * A look-back of {@code window} sampling every {@code period}, weighed in the sessions' {@code unit}, stacks cut at
     * {@code depth}; every other option its default.
     */
    static CpuProfilerOptions options(Duration window, Duration period, Duration unit, int depth) {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setLookback(window);
        options.setLookbackSamplingPeriod(period);
        options.setStackSamplingPeriod(unit);
        options.setMaxStackDepth(depth);
        return options;
    }

    /** Armed from the start, whatever the CPU, and never disarmed; no thread level. */
    static LookbackRecorder alwaysArmed(CpuProfilerOptions options, TriggerHolds holds, LookbackSource source,
            EngineLock lock, Clock clock) {
        return new LookbackRecorder(options, true, holds, source, lock, clock, () -> Double.NaN);
    }

    /**
     * {@link Lookback#handOver()} and its snapshot at once: blocks until the sampler has delivered its last samples (up
     * to JFR's one-second flush interval); empty when look-back is off, not started or closed.
     */
    static Optional<LookbackSnapshot> stepAside(Lookback lookback) {
        return lookback.handOver().map(LookbackHandOver::snapshot);
    }
}
