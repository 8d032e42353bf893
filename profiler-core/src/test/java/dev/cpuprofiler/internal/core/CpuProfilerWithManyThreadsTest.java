package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.SessionOutcome;


import dev.cpuprofiler.CpuProfilerOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.CpuBreakdown;
import dev.cpuprofiler.ThreadCpu;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The whole profiler, real engine and real threads, in a JVM with a crowd of live threads: thread tracking, the
 * concurrency sampler and the CPU breakdown cope, stay bounded, and the monitor keeps ticking. 1 000 threads keep it
 * to a few seconds; ThreadCpuTrackerTest, ConcurrencyRunTest and CpuBreakdownProbeTest take 10 000 scripted ones.
 */
class CpuProfilerWithManyThreadsTest {

    private static final int CROWD = 1_000;

    @Test
    void aProfileAmongAThousandParkedThreadsCompletesAndTheMonitorKeepsTicking() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> crowd = new ArrayList<>(CROWD);
        AtomicBoolean burning = new AtomicBoolean(true);
        Thread burner = new Thread(() -> {
            long x = 0;
            while (burning.get()) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            if (x == 42) {
                System.out.println();
            }
        }, "crowd-burner");
        burner.setDaemon(true);
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setEnabled(false);
        o.setEngine(EngineChoice.JFR_EXECUTION);
        o.setSamplingInterval(Duration.ofMillis(50));
        try {
            for (int i = 0; i < CROWD; i++) {
                Thread t = new Thread(null, () -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }, "crowd-" + i, 256 * 1024);
                t.setDaemon(true);
                t.start();
                crowd.add(t);
            }
            burner.start();
            try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(o).build()) {
                profiler.start();
                await().atMost(Duration.ofSeconds(20)).until(() -> profiler.threads().trackedThreads() > CROWD);

                RunningSession session = profiler.startOnDemand(Duration.ofSeconds(1));
                assertThat(session.outcome().toCompletableFuture().get(60, TimeUnit.SECONDS).status())
                        .isEqualTo(SessionOutcome.Status.COMPLETED);

                Profile profile = profiler.store().latest().orElseThrow();
                assertThat(profile.recording().samples()).isPositive();
                assertThat(profile.cpu().concurrency()).isNotNull();
                assertThat(profile.cpu().concurrency().threadsSeen()).isGreaterThan(CROWD);
                assertThat(profile.cpu().concurrency().histogram()).as("bins up to the threads that can run at once")
                        .hasSizeLessThanOrEqualTo(Runtime.getRuntime().availableProcessors() + 1);
                assertThat(profile.cpu().concurrency().threads()).extracting(ThreadCpu::name).contains("crowd-burner");
                CpuBreakdown breakdown = profile.cpu().breakdown();
                assertThat(breakdown).isNotNull();
                assertThat(breakdown.groups()).hasSizeLessThanOrEqualTo(6);
                assertThat(breakdown.groups().stream().mapToDouble(CpuBreakdown.Share::percent).sum()).isBetween(95.0, 105.0);
                assertThat(breakdown.percentOf(CpuBreakdown.Group.APPLICATION)).isGreaterThan(30.0);
                List<ThreadCpu> top = profiler.status().threads();
                assertThat(top).hasSizeLessThanOrEqualTo(10);
                assertThat(top).extracting(ThreadCpu::name).contains("crowd-burner");

                long samples = profiler.sampler().samples();
                await().atMost(Duration.ofSeconds(10)).until(() -> profiler.sampler().samples() >= samples + 3);

                // The crowd ends: the tracker lets go of it.
                release.countDown();
                for (Thread t : crowd) {
                    t.join(TimeUnit.SECONDS.toMillis(30));
                }
                await().atMost(Duration.ofSeconds(10)).until(() -> profiler.threads().trackedThreads() < 100);
            }
        } finally {
            release.countDown();
            burning.set(false);
            for (Thread t : crowd) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
            burner.join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
