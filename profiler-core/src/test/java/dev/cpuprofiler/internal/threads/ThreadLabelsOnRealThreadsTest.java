package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.ThreadCpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The tracker on real threads: a thread that computes all the time is CPU-bound, one that sleeps is mostly waiting.
 * On a shared machine a busy thread may get less than a whole core; its percent is then checked against the CPU it
 * was measured to use, and the window measured again (up to 3 times) until it got at least 90% of a core.
 */
@Timeout(120)
class ThreadLabelsOnRealThreadsTest {

    @Test
    void aBusyThreadIsCpuBoundAndASleepingOneMostlyWaiting() throws InterruptedException {
        try (Workloads work = new Workloads()) {
            Thread busy = work.busy("busy");
            Thread sleeper = work.sleeper("sleeper", 20);
            for (int i = 0; i < 50; i++) {
                work.parked("parked-" + i);
            }
            double got = 0;
            ThreadCpu busyCpu = null;
            ThreadCpuTracker tracker = null;
            for (int attempt = 1; attempt <= 3 && got < 90; attempt++) {
                tracker = new ThreadCpuTracker(new ManagementThreadCpuReader(), new CpuProfilerOptions());
                tracker.onSample(System.nanoTime(), 0, Double.NaN);
                long cpu0 = Workloads.cpu(busy);
                long t0 = System.nanoTime();
                for (int tick = 0; tick < 10; tick++) {
                    Thread.sleep(200);
                    tracker.onSample(System.nanoTime(), 0, Double.NaN);
                }
                got = (Workloads.cpu(busy) - cpu0) * 100.0 / (System.nanoTime() - t0);
                busyCpu = tracker.thread(busy.getId()).orElseThrow();
                System.out.printf("busy thread got %.1f%% of a core; tracker says %s%n", got, busyCpu);
            }

            assertThat(busyCpu.cpuPercent()).isCloseTo(got, within(5.0)); // against what it really got
            if (got >= 90) {
                assertThat(busyCpu.label()).isEqualTo(ThreadCpu.Label.CPU_BOUND);
            }
            ThreadCpu sleeperCpu = tracker.thread(sleeper.getId()).orElseThrow();
            assertThat(sleeperCpu.label()).isEqualTo(ThreadCpu.Label.MOSTLY_WAITING);
            assertThat(sleeperCpu.name()).isEqualTo("sleeper");
            List<ThreadCpu> top = tracker.top(2);
            assertThat(top.get(0).name()).isEqualTo("busy");
            assertThat(top).extracting(ThreadCpu::name).doesNotContain("parked-0");
        }
    }

    /** The JVM's thread counters, not a listing every tick, are what finds threads here: new ones and ended ones. */
    @Test
    void aThreadThatStartsBurningIsInTheTopTableTwoTicksLaterAndDroppedOnceItEnds() throws InterruptedException {
        ThreadCpuTracker tracker = new ThreadCpuTracker(new ManagementThreadCpuReader(), new CpuProfilerOptions());
        for (int tick = 0; tick < 5; tick++) {
            tracker.onSample(System.nanoTime(), 0, Double.NaN);
            Thread.sleep(50);
        }
        AtomicBoolean burning = new AtomicBoolean(true);
        Thread burner = new Thread(() -> {
            long x = 0;
            while (burning.get()) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            if (x == 42) {
                System.out.println();
            }
        }, "burner");
        burner.setDaemon(true);
        burner.start();
        try {
            for (int tick = 0; tick < 2; tick++) {
                Thread.sleep(100);
                tracker.onSample(System.nanoTime(), 0, Double.NaN);
            }
            assertThat(tracker.top(10)).extracting(ThreadCpu::name).contains("burner");
        } finally {
            burning.set(false);
            burner.join(10_000);
        }
        for (int tick = 0; tick < 2; tick++) {
            Thread.sleep(50);
            tracker.onSample(System.nanoTime(), 0, Double.NaN);
        }
        assertThat(tracker.thread(burner.getId())).as("dropped once ended").isEmpty();
        assertThat(tracker.top(10)).extracting(ThreadCpu::name).doesNotContain("burner");
    }
}
