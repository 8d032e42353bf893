package dev.cpuprofiler.internal.baseline;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.cpu.CpuSampleListener;
import dev.cpuprofiler.internal.cpu.EffectiveCpuCount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The smoothed CPU baseline: a circular buffer of {@code history-size / history-interval} slots, each the
 * true average over its interval computed from the cumulative counters (not one point sample, so a
 * spike between two reads is neither missed nor over-weighted).
 *
 * <p>{@link #average()} is the average over the most recent {@code average-window} of completed slots
 * (the window rounded to whole slots), weighted by each slot's real length. Before the first interval
 * completes it is empty: a process that just started (class loading, JIT) is not yet a baseline, and the
 * trigger policy does not act on it.
 */
public final class RollingBaseline implements CpuSampleListener {

    private static final Logger log = LoggerFactory.getLogger(RollingBaseline.class);

    private final long intervalNanos;
    private final long toleranceNanos;
    private final int windowSlots;
    private final double cpus;

    // Circular buffer in primitive arrays: nothing is allocated per sample.
    private final long[] slotEnd;
    private final long[] slotCpu;
    private final long[] slotWall;
    private int next;
    private int filled;
    private long completed;

    private boolean started;
    private long intervalStartWall;
    private long intervalStartCpu;
    private double lastAverage = Double.NaN;

    /**
     * @param historySize how much history to keep
     * @param historyInterval the length of one slot, each the true average over it
     * @param averageWindow how much recent history {@link #average()} covers (rounded to whole slots, at most the
     *     history)
     * @param samplingInterval how often samples arrive; a slot closes at the first sample within half of this of its
     *     nominal end, so scheduling jitter does not stretch every slot by one tick
     * @param cpus the effective CPU count percentages are relative to
     */
    public RollingBaseline(Duration historySize, Duration historyInterval, Duration averageWindow,
            Duration samplingInterval, EffectiveCpuCount cpus) {
        this.intervalNanos = historyInterval.toNanos();
        int slots = (int) Math.max(1, historySize.toNanos() / intervalNanos);
        this.windowSlots = (int) Math.min(slots,
                Math.max(1, Math.round((double) averageWindow.toNanos() / intervalNanos)));
        this.toleranceNanos = Math.min(samplingInterval.toNanos() / 2, intervalNanos / 2);
        this.cpus = cpus.count();
        this.slotEnd = new long[slots];
        this.slotCpu = new long[slots];
        this.slotWall = new long[slots];
    }

    /** The baseline of {@code rolling-history-*} and {@code average-window}, fed every {@code sampling-interval}. */
    public static RollingBaseline of(CpuProfilerOptions options, EffectiveCpuCount cpus) {
        return new RollingBaseline(options.getRollingHistorySize(), options.getRollingHistoryInterval(),
                options.getAverageWindow(), options.getSamplingInterval(), cpus);
    }

    @Override
    public synchronized void onSample(long nanoTime, long cpuTimeNanos, double percent) {
        if (!started) {
            started = true;
            intervalStartWall = nanoTime;
            intervalStartCpu = cpuTimeNanos;
            return;
        }
        long wall = nanoTime - intervalStartWall;
        if (wall + toleranceNanos < intervalNanos) {
            return;
        }
        long cpu = Math.max(0, cpuTimeNanos - intervalStartCpu);
        slotEnd[next] = nanoTime;
        slotCpu[next] = cpu;
        slotWall[next] = wall;
        next = (next + 1) % slotEnd.length;
        filled = Math.min(filled + 1, slotEnd.length);
        completed++;
        intervalStartWall = nanoTime;
        intervalStartCpu = cpuTimeNanos;

        double old = lastAverage;
        lastAverage = computeAverage();
        if (log.isDebugEnabled()) {
            log.debug("Baseline update: metric=cpu, old={}, new={} (slot {}: {}% over {} ms)",
                    Double.isNaN(old) ? "none" : String.format("%.1f", old), String.format("%.1f", lastAverage),
                    completed, String.format("%.1f", percent(cpu, wall)), wall / 1_000_000);
        }
    }

    private double computeAverage() {
        int n = Math.min(windowSlots, filled);
        long cpu = 0;
        long wall = 0;
        for (int i = 1; i <= n; i++) {
            int idx = Math.floorMod(next - i, slotEnd.length);
            cpu += slotCpu[idx];
            wall += slotWall[idx];
        }
        return percent(cpu, wall);
    }

    private double percent(long cpu, long wall) {
        if (wall <= 0) {
            return 0;
        }
        return Math.min(100.0, Math.max(0.0, cpu / (wall * cpus) * 100.0));
    }

    /** The average CPU% over the last average-window; empty until the first interval completes. */
    public synchronized OptionalDouble average() {
        return filled == 0 ? OptionalDouble.empty() : OptionalDouble.of(lastAverage);
    }

    /**
     * The highest average-window average over the kept history (what {@link #average()} was at its highest, slot
     * boundaries as they fell): how close the CPU came to the threshold. Empty until the first interval completes.
     */
    public synchronized OptionalDouble highestAverage() {
        if (filled == 0) {
            return OptionalDouble.empty();
        }
        int n = Math.min(windowSlots, filled);
        long cpu = 0;
        long wall = 0;
        double highest = 0;
        for (int i = filled; i >= 1; i--) { // oldest first, a window of n slots sliding to the newest
            int idx = Math.floorMod(next - i, slotEnd.length);
            cpu += slotCpu[idx];
            wall += slotWall[idx];
            int leaving = filled - i - n; // the slot n places back leaves the window
            if (leaving >= 0) {
                int out = Math.floorMod(next - filled + leaving, slotEnd.length);
                cpu -= slotCpu[out];
                wall -= slotWall[out];
            }
            if (filled - i + 1 >= n) {
                highest = Math.max(highest, percent(cpu, wall));
            }
        }
        return OptionalDouble.of(highest);
    }

    /** The span of history kept now: the completed slots' wall time. */
    public synchronized Duration keptHistory() {
        long wall = 0;
        for (int i = 1; i <= filled; i++) {
            wall += slotWall[Math.floorMod(next - i, slotEnd.length)];
        }
        return Duration.ofNanos(wall);
    }

    /** The completed slots, oldest first. */
    public synchronized List<Slot> history() {
        List<Slot> out = new ArrayList<>(filled);
        for (int i = filled; i >= 1; i--) {
            int idx = Math.floorMod(next - i, slotEnd.length);
            out.add(new Slot(slotEnd[idx], slotCpu[idx], slotWall[idx], percent(slotCpu[idx], slotWall[idx])));
        }
        return out;
    }

    /** How many slots have completed since start (not capped by the buffer size). */
    public synchronized long completedSlots() {
        return completed;
    }

    /** Slots the buffer holds. */
    public int capacity() {
        return slotEnd.length;
    }

    /** Slots the average covers. */
    public int windowSlots() {
        return windowSlots;
    }

    /**
     * One completed rolling-history interval.
     *
     * @param endNanoTime the ticker's reading when the interval closed
     * @param cpuNanos CPU time used during the interval
     * @param wallNanos the interval's actual length
     * @param percent the true average CPU% over the interval
     */
    public record Slot(long endNanoTime, long cpuNanos, long wallNanos, double percent) {
    }
}
