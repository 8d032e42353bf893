package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.internal.baseline.BaselineSlot;
import dev.cpuprofiler.internal.cpu.RecentCpuSamples;
import java.time.Instant;
import java.util.List;

/**
 * Reads {@link CpuProfilerStatus.History}: the sampler and the baseline keep ticker times (monotonic nanoseconds,
 * cheap on the tick); this turns them into seconds before one reading of the clock and the ticker, taken together.
 */
final class CpuHistoryReader {

    private final Pipeline p;

    CpuHistoryReader(Pipeline pipeline) {
        this.p = pipeline;
    }

    CpuProfilerStatus.History read() {
        Instant now = p.clock().instant();
        long nowNanos = p.ticker().nanoTime();
        // A quiet process is sampled less often, so the ring may reach further back than the chart shows.
        long from = nowNanos - RecentCpuSamples.SPAN.toNanos();
        List<double[]> samples = p.recentCpu().snapshot().stream()
                .filter(s -> s.nanoTime() >= from)
                .map(s -> new double[] {secondsBefore(nowNanos, s.nanoTime()), Rounding.percent(s.percent())})
                .toList();
        List<double[]> slots = p.baseline().history().stream().map(s -> slot(nowNanos, s)).toList();
        return new CpuProfilerStatus.History(now, p.options().getSamplingInterval(),
                p.options().getRollingHistoryInterval(), samples, slots);
    }

    private static double[] slot(long nowNanos, BaselineSlot s) {
        return new double[] {secondsBefore(nowNanos, s.endNanoTime() - s.wallNanos()),
                secondsBefore(nowNanos, s.endNanoTime()), Rounding.percent(s.percent())};
    }

    /** Seconds from now back to the ticker time, to 0.1 s (negative: in the past). */
    private static double secondsBefore(long nowNanos, long nanoTime) {
        return Math.round((nanoTime - nowNanos) / 100_000_000.0) / 10.0;
    }
}
