package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuBreakdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuBreakdownProbeTest {

    private static final long MS = 1_000_000;

    @TempDir
    Path root;

    private final AtomicLong processCpu = new AtomicLong(5_000 * MS);
    private final FakeThreadCpuReader jvmThreads = new FakeThreadCpuReader();

    @Test
    void measuresEveryThreadFromProcBetweenStartAndFinish() {
        FakeProcTasks proc = new FakeProcTasks(root)
                .task(100, "java", 1_000 * MS)
                .task(101, "GC Thread#0", 200 * MS)
                .task(102, "C2 CompilerThread0", 900 * MS)
                .task(103, "cpuprofiler-session", 0)
                .task(104, "Reference Handler", 1 * MS)
                .task(105, "pool-1-thread-1", 300 * MS);
        CpuBreakdownProbe probe = new CpuBreakdownProbe(root, processCpu::get, jvmThreads);

        CpuBreakdownProbe.Measurement measurement = probe.start();
        proc.task(100, "java", 2_000 * MS)
                .task(101, "GC Thread#0", 300 * MS)
                .task(102, "C2 CompilerThread0", 1_000 * MS)
                .task(103, "cpuprofiler-session", 50 * MS)
                .task(104, "Reference Handler", 51 * MS)
                .end(105) // used 200 ms more, then ended
                .task(106, "pool-1-thread-2", 100 * MS);
        processCpu.addAndGet(1_600 * MS);
        CpuBreakdown b = measurement.finish().orElseThrow();

        assertThat(b.source()).isEqualTo(CpuBreakdown.SOURCE_PROC);
        assertThat(b.processCpuTime()).isEqualTo(Duration.ofMillis(1_600));
        assertThat(b.groups()).containsExactly(
                new CpuBreakdown.Share(CpuBreakdown.Group.APPLICATION, Duration.ofMillis(1_100), 68.75),
                new CpuBreakdown.Share(CpuBreakdown.Group.GC, Duration.ofMillis(100), 6.25),
                new CpuBreakdown.Share(CpuBreakdown.Group.JIT, Duration.ofMillis(100), 6.25),
                new CpuBreakdown.Share(CpuBreakdown.Group.PROFILER, Duration.ofMillis(50), 3.125),
                new CpuBreakdown.Share(CpuBreakdown.Group.JVM_OTHER, Duration.ofMillis(50), 3.125),
                new CpuBreakdown.Share(CpuBreakdown.Group.UNATTRIBUTED, Duration.ofMillis(200), 12.5));
        assertThat(jvmThreads.listings()).isZero(); // the fallback is not touched when /proc works
    }

    @Test
    void fallsBackToJavaThreadsWithoutProcAndShowsTheRestAsUnattributed() {
        jvmThreads.start(1, "main");
        jvmThreads.start(2, "cpuprofiler-sampler");
        jvmThreads.start(3, "JFR Recorder Thread");
        jvmThreads.start(4, "Reference Handler");
        jvmThreads.start(5, "worker");
        jvmThreads.burn(1, 100 * MS);
        CpuBreakdownProbe probe = new CpuBreakdownProbe(root, processCpu::get, jvmThreads); // no proc/ in root

        CpuBreakdownProbe.Measurement measurement = probe.start();
        jvmThreads.burn(1, 500 * MS);
        jvmThreads.burn(2, 20 * MS);
        jvmThreads.burn(3, 30 * MS);
        jvmThreads.burn(4, 10 * MS);
        jvmThreads.end(5);
        processCpu.addAndGet(1_000 * MS); // GC and JIT threads, invisible here, used the other 440 ms
        CpuBreakdown b = measurement.finish().orElseThrow();

        assertThat(b.source()).isEqualTo(CpuBreakdown.SOURCE_JVM);
        assertThat(b.cpuTimeOf(CpuBreakdown.Group.APPLICATION)).isEqualTo(Duration.ofMillis(500));
        assertThat(b.cpuTimeOf(CpuBreakdown.Group.PROFILER)).isEqualTo(Duration.ofMillis(50));
        assertThat(b.cpuTimeOf(CpuBreakdown.Group.JVM_OTHER)).isEqualTo(Duration.ofMillis(10));
        assertThat(b.cpuTimeOf(CpuBreakdown.Group.GC)).isZero();
        assertThat(b.cpuTimeOf(CpuBreakdown.Group.UNATTRIBUTED)).isEqualTo(Duration.ofMillis(440));
        assertThat(CpuBreakdownCalculatorTest.sumOfPercents(b)).isCloseTo(100, within(1e-9));
    }

    @Test
    void tenThousandThreadsStillAddUpToTheProcessInAHandfulOfGroups() {
        for (long id = 1; id <= 10_000; id++) {
            jvmThreads.start(id, id % 100 == 0 ? "cpuprofiler-session" : "http-nio-8080-exec-" + id);
        }
        CpuBreakdownProbe probe = new CpuBreakdownProbe(root, processCpu::get, jvmThreads); // no proc/ in root

        CpuBreakdownProbe.Measurement measurement = probe.start();
        for (long id = 1; id <= 10_000; id++) {
            jvmThreads.burn(id, MS / 10);
        }
        for (long id = 1; id <= 5_000; id++) {
            jvmThreads.end(id); // half of them end before the session does, with their CPU unseen at the end
        }
        processCpu.addAndGet(1_000 * MS);
        CpuBreakdown b = measurement.finish().orElseThrow();

        assertThat(b.groups()).extracting(CpuBreakdown.Share::group)
                .containsExactly(CpuBreakdown.Group.APPLICATION, CpuBreakdown.Group.GC, CpuBreakdown.Group.JIT, CpuBreakdown.Group.PROFILER, CpuBreakdown.Group.JVM_OTHER, CpuBreakdown.Group.UNATTRIBUTED);
        assertThat(b.cpuTimeOf(CpuBreakdown.Group.APPLICATION)).isEqualTo(Duration.ofNanos(4_950 * MS / 10));
        assertThat(b.cpuTimeOf(CpuBreakdown.Group.PROFILER)).isEqualTo(Duration.ofNanos(50 * MS / 10));
        assertThat(CpuBreakdownCalculatorTest.sumOfPercents(b)).isCloseTo(100, within(1e-9));
    }

    @Test
    void nothingReadableGivesEmptyWithoutThrowing() {
        ThreadCpuReader unavailable = new BrokenReader(false);
        CpuBreakdownProbe probe = new CpuBreakdownProbe(root, processCpu::get, unavailable);

        assertThat(probe.start().finish()).isEmpty();
    }

    @Test
    void procGoneAtTheEndGivesEmpty() throws Exception {
        FakeProcTasks proc = new FakeProcTasks(root).task(1, "java", 10 * MS);
        CpuBreakdownProbe.Measurement measurement = new CpuBreakdownProbe(root, processCpu::get, jvmThreads).start();
        proc.end(1);
        Files.delete(proc.taskDir());

        assertThat(measurement.finish()).isEmpty();
    }

    @Test
    void failingReadersAndAnUnknownProcessTimeNeverThrow() {
        new FakeProcTasks(root).task(1, "java", 10 * MS);
        CpuBreakdownProbe probe = new CpuBreakdownProbe(root, () -> {
            throw new IllegalStateException("no MXBean");
        }, jvmThreads);
        assertThat(probe.start().finish()).hasValueSatisfying(b -> assertThat(b.processCpuTime()).isZero());

        ThreadCpuReader broken = new BrokenReader(true);
        CpuBreakdownProbe jvmOnly = new CpuBreakdownProbe(root.resolve("nowhere"), () -> -1, broken);
        assertThat(jvmOnly.start().finish()).isEmpty();
    }

    /** Unavailable, or available but failing on every read. */
    private record BrokenReader(boolean available) implements ThreadCpuReader {

        @Override
        public long[] threadIds() {
            throw new IllegalStateException("boom");
        }

        @Override
        public long[] cpuTimes(long[] ids) {
            throw new IllegalStateException("boom");
        }

        @Override
        public String[] names(long[] ids) {
            throw new IllegalStateException("boom");
        }
    }
}
