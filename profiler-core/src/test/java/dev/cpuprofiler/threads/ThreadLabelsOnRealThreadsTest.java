package dev.cpuprofiler.threads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
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
                tracker = new ThreadCpuTracker(new ManagementThreadCpuReader());
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
                assertThat(busyCpu.label()).isEqualTo(ThreadLabel.CPU_BOUND);
            }
            ThreadCpu sleeperCpu = tracker.thread(sleeper.getId()).orElseThrow();
            assertThat(sleeperCpu.label()).isEqualTo(ThreadLabel.MOSTLY_WAITING);
            assertThat(sleeperCpu.name()).isEqualTo("sleeper");
            List<ThreadCpu> top = tracker.top(2);
            assertThat(top.get(0).name()).isEqualTo("busy");
            assertThat(top).extracting(ThreadCpu::name).doesNotContain("parked-0");
        }
    }
}
