package dev.cpuprofiler.internal.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuUsageSourcesTest {

    private static final Path REAL_CPUACCT_USAGE = Path.of("/sys/fs/cgroup/cpuacct/cpuacct.usage");

    @TempDir
    Path root;

    @Test
    void v1ReadsCpuacctUsageInNanoseconds() throws IOException {
        FakeFs fs = new FakeFs(root).v1Cpuacct("/cg", 213648183245L);

        try (CgroupCpuSource source = CgroupCpuSource.v1(fs.path("/cg"))) {
            assertThat(source.cpuTimeNanos()).isEqualTo(213648183245L);
            assertThat(source.kind()).isEqualTo(CpuSourceKind.CGROUP_V1);
            assertThat(source.description()).endsWith("/cg/cpuacct.usage");
        }
    }

    @Test
    void v2ReadsUsageUsecFromAFullCpuStatTimesAThousand() throws IOException {
        FakeFs fs = new FakeFs(root).v2Group("/cg", 98765432L, "max 100000");

        try (CgroupCpuSource source = CgroupCpuSource.v2(fs.path("/cg"))) {
            assertThat(source.cpuTimeNanos()).isEqualTo(98765432L * 1000);
            assertThat(source.kind()).isEqualTo(CpuSourceKind.CGROUP_V2);
            assertThat(source.description()).endsWith("/cg/cpu.stat");
        }
    }

    @Test
    void v2FindsUsageUsecWhereverItsLineIs() throws IOException {
        FakeFs fs = new FakeFs(root).write("/cg/cpu.stat", "nr_periods 5\nuser_usec 7\nusage_usec 1234\n");

        try (CgroupCpuSource source = CgroupCpuSource.v2(fs.path("/cg"))) {
            assertThat(source.cpuTimeNanos()).isEqualTo(1_234_000L);
        }
    }

    @Test
    void eachReadSeesTheCurrentValueThroughTheOpenFile() throws IOException {
        FakeFs fs = new FakeFs(root).v1Cpuacct("/v1", 1_000).v2Group("/v2", 5, null);

        try (CgroupCpuSource v1 = CgroupCpuSource.v1(fs.path("/v1"));
                CgroupCpuSource v2 = CgroupCpuSource.v2(fs.path("/v2"))) {
            assertThat(v1.cpuTimeNanos()).isEqualTo(1_000);
            assertThat(v2.cpuTimeNanos()).isEqualTo(5_000);
            fs.write("/v1/cpuacct.usage", "123456789012\n").write("/v2/cpu.stat", FakeFs.cpuStatV2(1_000_000));
            assertThat(v1.cpuTimeNanos()).isEqualTo(123456789012L);
            assertThat(v2.cpuTimeNanos()).isEqualTo(1_000_000_000L);
        }
    }

    @Test
    void aCounterGoingBackwardsIsReportedAsIs() throws IOException {
        // A recreated cgroup restarts from zero; the source reports it and the sampler copes.
        FakeFs fs = new FakeFs(root).v1Cpuacct("/cg", 9_000_000_000L);

        try (CgroupCpuSource source = CgroupCpuSource.v1(fs.path("/cg"))) {
            assertThat(source.cpuTimeNanos()).isEqualTo(9_000_000_000L);
            fs.write("/cg/cpuacct.usage", "42\n");
            assertThat(source.cpuTimeNanos()).isEqualTo(42);
        }
    }

    @Test
    void aMissingFileFailsClearlyAndIsPickedUpOnceItAppears() throws IOException {
        try (CgroupCpuSource source = CgroupCpuSource.v1(root.resolve("gone"))) {
            assertThatThrownBy(source::cpuTimeNanos)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("does not exist")
                    .hasMessageContaining("gone/cpuacct.usage");

            new FakeFs(root).v1Cpuacct("/gone", 77);
            assertThat(source.cpuTimeNanos()).isEqualTo(77);
        }
    }

    @Test
    void garbageContentFailsWithTheFileAndContentInTheMessage() {
        FakeFs fs = new FakeFs(root);
        for (String garbage : new String[] {"abc\n", "", "12x4\n", "-5\n", "99999999999999999999\n"}) {
            fs.write("/v1/cpuacct.usage", garbage);
            try (CgroupCpuSource source = CgroupCpuSource.v1(fs.path("/v1"))) {
                assertThatThrownBy(source::cpuTimeNanos)
                        .as("content '%s'", garbage)
                        .isInstanceOf(IOException.class)
                        .hasMessageContaining("unexpected content in")
                        .hasMessageContaining("cpuacct.usage");
            }
        }
        fs.write("/v2/cpu.stat", "user_usec 5\nsystem_usec 6\n");
        try (CgroupCpuSource source = CgroupCpuSource.v2(fs.path("/v2"))) {
            assertThatThrownBy(source::cpuTimeNanos).isInstanceOf(IOException.class)
                    .hasMessageContaining("no usage_usec line").hasMessageContaining("user_usec 5");
        }
        fs.write("/v2/cpu.stat", "usage_usec lots\n");
        try (CgroupCpuSource source = CgroupCpuSource.v2(fs.path("/v2"))) {
            assertThatThrownBy(source::cpuTimeNanos).isInstanceOf(IOException.class)
                    .hasMessageContaining("unexpected content");
        }
    }

    @Test
    void aReadBrokenByAnInterruptReopensTheFileNextTime() throws IOException {
        // An interrupt closes a FileChannel for good; the source must not stay broken afterwards.
        FakeFs fs = new FakeFs(root).v1Cpuacct("/cg", 10);
        try (CgroupCpuSource source = CgroupCpuSource.v1(fs.path("/cg"))) {
            assertThat(source.cpuTimeNanos()).isEqualTo(10);

            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(source::cpuTimeNanos).isInstanceOf(IOException.class);
            } finally {
                Thread.interrupted();
            }

            fs.write("/cg/cpuacct.usage", "11\n");
            assertThat(source.cpuTimeNanos()).isEqualTo(11);
        }
    }

    @Test
    void manyReadsOfTheSameOpenFileStayExact() throws IOException {
        // The source reuses its buffer on every read: nothing of one read may leak into the next. (What a read costs,
        // in time and allocation, is measured by the benchmarks: CpuSourceReadBenchmark, not here.)
        FakeFs fs = new FakeFs(root).v2Group("/cg", 123456, "max 100000");
        try (CgroupCpuSource source = CgroupCpuSource.v2(fs.path("/cg"))) {
            for (int i = 0; i < 1000; i++) {
                assertThat(source.cpuTimeNanos()).isEqualTo(123_456_000L);
            }
            fs.write("/cg/cpu.stat", "usage_usec 7\n");
            assertThat(source.cpuTimeNanos()).as("a shorter file after a longer one").isEqualTo(7_000L);
        }
    }

    @Test
    void realCpuacctUsageIsFreshOnEveryPositionalReRead() throws IOException {
        assumeTrue(Files.isReadable(REAL_CPUACCT_USAGE), "no cgroup v1 " + REAL_CPUACCT_USAGE + " on this machine");

        try (CgroupCpuSource source = CgroupCpuSource.v1(REAL_CPUACCT_USAGE.getParent())) {
            long before = source.cpuTimeNanos();
            burnCpu(50);
            long after = source.cpuTimeNanos();

            // The same open file, re-read at offset 0, shows the machine's CPU time having grown by our burn.
            assertThat(after - before).isGreaterThanOrEqualTo(45_000_000L);
        }
    }

    @Test
    void processSourceCountsThisJvmsCpuTime() throws IOException {
        try (ProcessCpuSource source = new ProcessCpuSource(ProcessCpuSource.platformProcessCpuTime(),
                ProcessCpuSource.MXBEAN_DESCRIPTION)) {
            long before = source.cpuTimeNanos();
            burnCpu(100);
            long after = source.cpuTimeNanos();

            assertThat(source.kind()).isEqualTo(CpuSourceKind.PROCESS);
            assertThat(source.description()).isEqualTo("OperatingSystemMXBean.getProcessCpuTime()");
            // The JVM's process CPU time may tick in 10 ms steps.
            assertThat(after - before).isGreaterThanOrEqualTo(80_000_000L);
        }
    }

    @Test
    void processSourceFailsClearlyWhereTheJvmCannotTell() {
        ProcessCpuSource source = new ProcessCpuSource(() -> -1L, "test counter");

        assertThatThrownBy(source::cpuTimeNanos).isInstanceOf(IOException.class)
                .hasMessageContaining("not available").hasMessageContaining("test counter");
    }

    /** Burns this much CPU time on this thread (not wall time: a busy machine must not shorten the burn). */
    private static void burnCpu(long millis) {
        java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + millis * 1_000_000;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 10_000; i++) {
                x += Long.numberOfTrailingZeros(x + 1);
            }
        }
        if (x == 42) {
            System.out.println(x);
        }
    }
}
