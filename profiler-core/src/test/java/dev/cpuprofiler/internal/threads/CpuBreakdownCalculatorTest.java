package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cpuprofiler.internal.threads.TaskCpuSource.Snapshot;
import dev.cpuprofiler.internal.threads.TaskCpuSource.Snapshot.TaskCpu;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuBreakdownCalculatorTest {

    private static final long MS = 1_000_000;

    @Test
    void splitsTheDeltasByGroupInTheFixedOrder() {
        Snapshot start = snapshot(1, "java", 100 * MS, 2, "GC Thread#0", 10 * MS, 3, "C2 CompilerThre", 50 * MS,
                4, "cpuprofiler-ses", 0, 5, "VM Thread", 5 * MS);
        Snapshot end = snapshot(1, "java", 700 * MS, 2, "GC Thread#0", 110 * MS, 3, "C2 CompilerThre", 150 * MS,
                4, "cpuprofiler-ses", 50 * MS, 5, "VM Thread", 55 * MS);

        CpuBreakdown b = CpuBreakdownCalculator.compute("proc", start, end, 900 * MS);

        assertThat(b.source()).isEqualTo("proc");
        assertThat(b.processCpuTime()).isEqualTo(Duration.ofMillis(900));
        assertThat(b.groups()).extracting(CpuBreakdown.Share::group)
                .containsExactly(CpuBreakdown.Group.APPLICATION, CpuBreakdown.Group.GC, CpuBreakdown.Group.JIT, CpuBreakdown.Group.PROFILER, CpuBreakdown.Group.JVM_OTHER);
        assertThat(b.groups()).extracting(CpuBreakdown.Share::cpuTime).containsExactly(Duration.ofMillis(600),
                Duration.ofMillis(100), Duration.ofMillis(100), Duration.ofMillis(50), Duration.ofMillis(50));
        assertThat(b.percentOf(CpuBreakdown.Group.APPLICATION)).isCloseTo(66.667, within(0.001));
        assertThat(b.ratio(CpuBreakdown.Group.GC)).isCloseTo(1.0 / 9, within(1e-9));
        assertThat(sumOfPercents(b)).isCloseTo(100, within(1e-9));
    }

    @Test
    void threadsThatEndedShowAsUnattributed() {
        Snapshot start = snapshot(1, "java", 100 * MS, 2, "short-lived", 10 * MS);
        Snapshot end = snapshot(1, "java", 500 * MS, 3, "started-later", 200 * MS);

        // The process also counts what "short-lived" used before it ended: 300 ms nobody listed.
        CpuBreakdown b = CpuBreakdownCalculator.compute("proc", start, end, 900 * MS);

        assertThat(b.cpuTimeOf(CpuBreakdown.Group.APPLICATION)).isEqualTo(Duration.ofMillis(600)); // 400 + the new thread's 200
        assertThat(b.groups()).last().isEqualTo(new CpuBreakdown.Share(CpuBreakdown.Group.UNATTRIBUTED, Duration.ofMillis(300), 100.0 / 3));
        assertThat(sumOfPercents(b)).isCloseTo(100, within(1e-9));
    }

    @Test
    void aSmallGapIsReadSkewSpreadOverTheGroupsNotShown() {
        Snapshot start = snapshot(1, "java", 0, 2, "GC Thread#0", 0);
        Snapshot end = snapshot(1, "java", 750 * MS, 2, "GC Thread#0", 246 * MS);

        CpuBreakdown b = CpuBreakdownCalculator.compute("proc", start, end, 1000 * MS); // 4 ms = 0.4% unlisted

        assertThat(b.group(CpuBreakdown.Group.UNATTRIBUTED)).isEmpty();
        assertThat(b.groups().stream().mapToLong(g -> g.cpuTime().toNanos()).sum()).isEqualTo(1000 * MS);
        assertThat(b.percentOf(CpuBreakdown.Group.APPLICATION)).isCloseTo(75.3, within(0.05));
        assertThat(sumOfPercents(b)).isCloseTo(100, within(1e-9));
    }

    @Test
    void aGapWithinTheProcessClocksTicksIsNotShown() {
        // The JDK reads the process's CPU time in 10 ms ticks: 15 ms short of 600 ms is rounding, not a lost thread.
        Snapshot start = snapshot(1, "java", 0);
        Snapshot end = snapshot(1, "java", 585 * MS);

        CpuBreakdown b = CpuBreakdownCalculator.compute("proc", start, end, 600 * MS);

        assertThat(b.group(CpuBreakdown.Group.UNATTRIBUTED)).isEmpty();
        assertThat(b.percentOf(CpuBreakdown.Group.APPLICATION)).isEqualTo(100);
    }

    @Test
    void threadsAddingUpToMoreThanTheProcessAreScaledDown() {
        // Tick-rounded stat values may sum past the process's nanosecond clock.
        Snapshot start = snapshot(1, "java", 0, 2, "G1 Conc#0", 0);
        Snapshot end = snapshot(1, "java", 900 * MS, 2, "G1 Conc#0", 300 * MS);

        CpuBreakdown b = CpuBreakdownCalculator.compute("proc", start, end, 1000 * MS);

        assertThat(b.cpuTimeOf(CpuBreakdown.Group.APPLICATION)).isEqualTo(Duration.ofMillis(750));
        assertThat(b.cpuTimeOf(CpuBreakdown.Group.GC)).isEqualTo(Duration.ofMillis(250));
        assertThat(b.percentOf(CpuBreakdown.Group.GC)).isCloseTo(25, within(1e-9));
        assertThat(sumOfPercents(b)).isCloseTo(100, within(1e-9));
    }

    @Test
    void scalingRoundsToExactlyTheProcessTime() {
        Snapshot start = snapshot(1, "a", 0, 2, "GC Thread#0", 0, 3, "C1 CompilerThre", 0);
        Snapshot end = snapshot(1, "a", 1, 2, "GC Thread#0", 1, 3, "C1 CompilerThre", 1);

        CpuBreakdown b = CpuBreakdownCalculator.compute("proc", start, end, 2);

        assertThat(b.groups().stream().mapToLong(g -> g.cpuTime().toNanos()).sum()).isEqualTo(2);
        assertThat(sumOfPercents(b)).isCloseTo(100, within(1e-9));
    }

    @Test
    void aReusedTidCountsAsANewThread() {
        Snapshot start = snapshot(7, "old-worker", 500 * MS);
        Snapshot end = snapshot(7, "GC Thread#3", 20 * MS);

        CpuBreakdown b = CpuBreakdownCalculator.compute("proc", start, end, 20 * MS);

        assertThat(b.percentOf(CpuBreakdown.Group.GC)).isCloseTo(100, within(1e-9));
    }

    @Test
    void anUnknownProcessTimeIsTheThreadsSum() {
        Snapshot start = snapshot(1, "java", 0);
        Snapshot end = snapshot(1, "java", 30 * MS, 2, "JFR Recorder Th", 10 * MS);

        CpuBreakdown b = CpuBreakdownCalculator.compute("proc", start, end, -1);

        assertThat(b.processCpuTime()).isEqualTo(Duration.ofMillis(40));
        assertThat(b.percentOf(CpuBreakdown.Group.PROFILER)).isCloseTo(25, within(1e-9));
        assertThat(b.group(CpuBreakdown.Group.UNATTRIBUTED)).isEmpty();
    }

    @Test
    void noCpuUsedGivesZeroEverywhere() {
        Snapshot same = snapshot(1, "java", 5 * MS);

        CpuBreakdown b = CpuBreakdownCalculator.compute("proc", same, same, 0);

        assertThat(b.processCpuTime()).isZero();
        assertThat(b.groups()).hasSize(5).allSatisfy(g -> assertThat(g.percent()).isZero());
    }

    @Test
    void noThreadListedMakesItAllUnattributed() {
        Snapshot none = new Snapshot(Map.of(), 0);

        CpuBreakdown b = CpuBreakdownCalculator.compute("jvm", none, none, 10 * MS);

        assertThat(b.percentOf(CpuBreakdown.Group.UNATTRIBUTED)).isEqualTo(100);
        assertThat(b.percentOf(CpuBreakdown.Group.APPLICATION)).isZero();
    }

    static double sumOfPercents(CpuBreakdown b) {
        return b.groups().stream().mapToDouble(CpuBreakdown.Share::percent).sum();
    }

    /** tid, name, cpuNanos, tid, name, cpuNanos, ... */
    static Snapshot snapshot(Object... tidNameNanos) {
        Map<Long, TaskCpu> tasks = new HashMap<>();
        for (int i = 0; i < tidNameNanos.length; i += 3) {
            tasks.put(((Number) tidNameNanos[i]).longValue(),
                    new TaskCpu((String) tidNameNanos[i + 1], ((Number) tidNameNanos[i + 2]).longValue()));
        }
        return new Snapshot(tasks, 0);
    }
}
