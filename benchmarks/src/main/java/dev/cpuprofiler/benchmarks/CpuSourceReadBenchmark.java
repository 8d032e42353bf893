package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.internal.cpu.CgroupCpuSource;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.internal.cpu.CpuSourceSelector;
import dev.cpuprofiler.internal.cpu.CpuUsageSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One read of a CPU source's counter ({@link CpuUsageSource#cpuTimeNanos()}), the part of a sampler tick that touches
 * the kernel, in ns per read; the harness runs it with JMH's {@code gc} profiler for the bytes allocated per read
 * (goal: under 50 µs and allocation-free, as it runs every second forever). {@code cgroup}: this machine's cgroup
 * counter as the product selects it (v1 {@code cpuacct.usage} or v2 {@code cpu.stat}); {@code cgroup-v2-file}: the v2
 * parser on a {@code cpu.stat} in a temp directory, so the v2 code is measured on a v1 machine too; {@code process}:
 * {@code OperatingSystemMXBean.getProcessCpuTime()}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CpuSourceReadBenchmark {

    @Param({"cgroup", "cgroup-v2-file", "process"})
    public String source;

    private CpuUsageSource reader;
    private Path tempDir;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if ("cgroup-v2-file".equals(source)) {
            tempDir = Files.createTempDirectory("cpuprofiler-bench-cgroup-");
            Files.writeString(tempDir.resolve("cpu.stat"), "usage_usec 123456789\nuser_usec 100000000\n"
                    + "system_usec 23456789\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n");
            reader = CgroupCpuSource.v2(tempDir);
            return;
        }
        CpuSourceSelector.Selected selected = new CpuSourceSelector(Path.of("/"))
                .select("cgroup".equals(source) ? CpuSourceMode.CGROUP : CpuSourceMode.PROCESS);
        if ("cgroup".equals(source) && selected.fallbackReason() != null) {
            throw new IllegalStateException("no readable cgroup here: " + selected.fallbackReason());
        }
        reader = selected.source();
        reader.cpuTimeNanos();
    }

    @Benchmark
    public long read() throws IOException {
        return reader.cpuTimeNanos();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        reader.close();
        if (tempDir != null) {
            try (Stream<Path> files = Files.walk(tempDir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
    }
}
