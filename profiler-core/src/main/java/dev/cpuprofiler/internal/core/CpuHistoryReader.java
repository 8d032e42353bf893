package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfilerStatus;

import dev.cpuprofiler.internal.baseline.BaselineSlot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Reads {@link CpuProfilerStatus.History}: the sampler and the baseline keep ticker times (monotonic nanoseconds, cheap on the
 * tick); this turns them into instants against one reading of the clock and the ticker, taken together.
 */
final class CpuHistoryReader {

    private final Pipeline p;

    CpuHistoryReader(Pipeline pipeline) {
        this.p = pipeline;
    }

    CpuProfilerStatus.History read() {
        Instant now = p.clock().instant();
        long nowNanos = p.ticker().nanoTime();
        List<CpuProfilerStatus.History.Point> samples = p.recentCpu().snapshot().stream()
                .map(s -> new CpuProfilerStatus.History.Point(at(now, nowNanos, s.nanoTime()), s.percent())).toList();
        List<CpuProfilerStatus.History.Slot> slots = p.baseline().history().stream().map(s -> slot(now, nowNanos, s)).toList();
        return new CpuProfilerStatus.History(now, p.options().getSamplingInterval(), samples,
                p.options().getRollingHistoryInterval(), slots);
    }

    private static CpuProfilerStatus.History.Slot slot(Instant now, long nowNanos, BaselineSlot s) {
        Instant end = at(now, nowNanos, s.endNanoTime());
        return new CpuProfilerStatus.History.Slot(end.minusNanos(s.wallNanos()), end, s.percent());
    }

    private static Instant at(Instant now, long nowNanos, long nanoTime) {
        return now.minus(Duration.ofNanos(nowNanos - nanoTime));
    }
}
