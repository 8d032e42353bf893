package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The arithmetic of a {@link CpuBreakdown}: per-thread deltas between two snapshots, summed by group and fitted to
 * the process's CPU time.
 *
 * <p>A thread only in the end snapshot started during the session: all its CPU time counts. One only in the start
 * snapshot ended during it: its time since the start is unknown, but the process's CPU time includes it, so the
 * process's delta less the threads' is shown as unattributed. The snapshots are not atomic (hundreds of files read
 * while threads run; the process's time in 10 ms ticks), so a gap within {@value #TOLERANCE} of the process's time
 * or {@value #TOLERANCE_NANOS} ns is read skew, not lost threads: the groups are then scaled to the process's time,
 * as they are when they add up to more than it (tick-rounded {@code stat} values). Either way the groups add up to
 * the process's CPU time exactly (all unattributed when no thread was seen using CPU).
 */
final class CpuBreakdownCalculator {

    /** A gap up to this share of the process's CPU time is spread over the groups rather than shown. */
    static final double TOLERANCE = 0.005;

    /**
     * ... or up to this many nanoseconds: on Linux the JDK reads the process's CPU time with times(2), in clock ticks
     * (10 ms), so each of the two reads may be up to a tick short.
     */
    static final long TOLERANCE_NANOS = 20_000_000;

    private static final CpuBreakdown.Group[] ALWAYS_SHOWN = {
            CpuBreakdown.Group.APPLICATION, CpuBreakdown.Group.GC, CpuBreakdown.Group.JIT, CpuBreakdown.Group.PROFILER, CpuBreakdown.Group.JVM_OTHER};

    private CpuBreakdownCalculator() {
    }

    /**
     * @param processNanos the process's CPU time over the session; negative when unknown (the threads' sum is used)
     */
    static CpuBreakdown compute(String source, TaskCpuSource.Snapshot start, TaskCpuSource.Snapshot end,
            long processNanos) {
        long[] byGroup = new long[CpuBreakdown.Group.values().length];
        long threads = 0;
        for (Map.Entry<Long, TaskCpuSource.Snapshot.TaskCpu> e : end.tasks().entrySet()) {
            TaskCpuSource.Snapshot.TaskCpu now = e.getValue();
            TaskCpuSource.Snapshot.TaskCpu before = start.tasks().get(e.getKey());
            // Less than before: the tid was reused by a thread started during the session.
            long delta = before == null || before.cpuNanos() > now.cpuNanos()
                    ? now.cpuNanos() : now.cpuNanos() - before.cpuNanos();
            byGroup[ThreadGroupClassifier.classify(now.name()).ordinal()] += delta;
            threads += delta;
        }
        long process = processNanos < 0 ? threads : processNanos;
        long[] fitted = new long[byGroup.length];
        if (threads == 0 || process - threads > Math.max(TOLERANCE * process, TOLERANCE_NANOS)) {
            System.arraycopy(byGroup, 0, fitted, 0, byGroup.length);
            fitted[CpuBreakdown.Group.UNATTRIBUTED.ordinal()] = process - threads;
        } else if (threads > 0) {
            double scale = (double) process / threads;
            long sum = 0;
            int largest = 0;
            for (int g = 0; g < byGroup.length; g++) {
                fitted[g] = Math.round(byGroup[g] * scale);
                sum += fitted[g];
                largest = fitted[g] > fitted[largest] ? g : largest;
            }
            fitted[largest] += process - sum; // rounding: a few ns, to the group that can best take them
        }
        List<CpuBreakdown.Share> groups = new ArrayList<>(ALWAYS_SHOWN.length + 1);
        for (CpuBreakdown.Group g : ALWAYS_SHOWN) {
            groups.add(group(g, fitted[g.ordinal()], process));
        }
        if (fitted[CpuBreakdown.Group.UNATTRIBUTED.ordinal()] > 0) {
            groups.add(group(CpuBreakdown.Group.UNATTRIBUTED, fitted[CpuBreakdown.Group.UNATTRIBUTED.ordinal()], process));
        }
        return new CpuBreakdown(Duration.ofNanos(process), source, groups);
    }

    private static CpuBreakdown.Share group(CpuBreakdown.Group group, long nanos, long process) {
        return new CpuBreakdown.Share(group, Duration.ofNanos(nanos), process <= 0 ? 0 : nanos * 100.0 / process);
    }
}
