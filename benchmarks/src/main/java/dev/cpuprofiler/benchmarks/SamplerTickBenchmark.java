package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.internal.baseline.RollingBaseline;
import dev.cpuprofiler.internal.cpu.CpuSampler;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.internal.cpu.CpuSourceSelector;
import dev.cpuprofiler.internal.cpu.Ticker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
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
 * One sampler tick (read the counter, compute CPU%, feed the rolling baseline) per CPU source, on this
 * machine's real files. Run with {@code -prof gc} to see the allocation per tick.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SamplerTickBenchmark {

    /** {@code cgroup} reads the process's cgroup counter (the root cgroup on a plain host), {@code process} the MXBean. */
    @Param({"cgroup", "process"})
    public String source;

    private CpuSampler sampler;

    @Setup(Level.Trial)
    public void setUp() {
        CpuSourceSelector.Selected selected = new CpuSourceSelector(Path.of("/"))
                .select("cgroup".equals(source) ? CpuSourceMode.CGROUP : CpuSourceMode.PROCESS);
        if ("cgroup".equals(source) && selected.fallbackReason() != null) {
            throw new IllegalStateException("no readable cgroup here: " + selected.fallbackReason());
        }
        sampler = new CpuSampler(selected.source(), selected.effectiveCpus(), Duration.ofSeconds(1), Ticker.system(),
                Thread::new);
        sampler.addListener(new RollingBaseline(Duration.ofMinutes(10), Duration.ofSeconds(30),
                Duration.ofSeconds(30), Duration.ofSeconds(1), selected.effectiveCpus()));
        sampler.tick();
    }

    @Benchmark
    public double tick() {
        sampler.tick();
        return sampler.latestPercent();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        sampler.close();
    }
}
