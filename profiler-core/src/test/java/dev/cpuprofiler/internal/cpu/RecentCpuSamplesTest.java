package dev.cpuprofiler.internal.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RecentCpuSamplesTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void keepsTheLastSamplesOldestFirstWithTheirTimes() {
        RecentCpuSamples ring = new RecentCpuSamples(3);
        ring.onSample(100 * SECOND, 0, Double.NaN); // the sampler's first reading: no interval, not kept
        assertThat(ring.snapshot()).isEmpty();
        for (int i = 1; i <= 5; i++) {
            ring.onSample(100 * SECOND + i * SECOND, 0, i * 10.125);
        }
        assertThat(ring.snapshot()).extracting(RecentCpuSamples.Sample::percent).containsExactly(30.38, 40.5, 50.63);
        assertThat(ring.snapshot()).extracting(RecentCpuSamples.Sample::nanoTime)
                .containsExactly(103 * SECOND, 104 * SECOND, 105 * SECOND);
    }

    @Test
    void clampsToZeroToHundred() {
        RecentCpuSamples ring = new RecentCpuSamples(2);
        ring.onSample(SECOND, 0, 100.0);
        ring.onSample(2 * SECOND, 0, 0.0);
        assertThat(ring.snapshot()).extracting(RecentCpuSamples.Sample::percent).containsExactly(100.0, 0.0);
    }

    @Test
    void coversFiveMinutesAtTheSamplingInterval() {
        assertThat(RecentCpuSamples.covering(Duration.ofSeconds(1)).capacity()).isEqualTo(300);
        assertThat(RecentCpuSamples.covering(Duration.ofMillis(100)).capacity()).isEqualTo(3000);
        assertThat(RecentCpuSamples.covering(Duration.ofMillis(10)).capacity()).isEqualTo(3000);
        assertThat(RecentCpuSamples.covering(Duration.ofMinutes(10)).capacity()).isEqualTo(1);
    }

    @Test
    void aTickAllocatesNothing() {
        RecentCpuSamples ring = RecentCpuSamples.covering(Duration.ofSeconds(1));
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) java.lang.management
                .ManagementFactory.getThreadMXBean();
        long t = 0;
        for (int i = 0; i < 20_000; i++) { // warm up: the JIT compiles onSample
            ring.onSample(t += SECOND, 0, i % 100);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            ring.onSample(t += SECOND, 0, i % 100);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(allocated).as("bytes allocated by 10 000 ticks").isLessThan(1024);
    }
}
