package dev.cpuprofiler.internal.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.testing.FakeTime;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** What counts as the profiler's own CPU: its threads' time, and the JIT's while its work runs. */
class OwnCpuTest {

    private static final long MS = 1_000_000L;

    private final FakeTime time = new FakeTime();
    // Each thread's CPU time as the scripted reader reports it; a thread not in it reads -1 (ended, unreadable).
    private final Map<Long, Long> threadCpu = new ConcurrentHashMap<>();
    private final UnaryOperator<long[]> reader = ids -> {
        long[] out = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = threadCpu.getOrDefault(ids[i], -1L);
        }
        return out;
    };
    private final AtomicLong jitMillis = new AtomicLong(10_000);

    /** A thread of the factory's, running until {@code release} opens. */
    private static Thread holding(ThreadFactory factory, CountDownLatch running, CountDownLatch release) {
        return factory.newThread(() -> {
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    @Test
    void aProfilerThreadCountsWhileItRunsAndKeepsItsFinalTimeOnceItEnds() throws Exception {
        OwnCpu own = new OwnCpu(reader, null, time, OwnCpu.JIT_SETTLE);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread ours = holding(own.accountable(Thread::new), running, release);
        CountDownLatch otherRunning = new CountDownLatch(1);
        Thread application = holding(Thread::new, otherRunning, release);
        ours.start();
        application.start();
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(otherRunning.await(10, TimeUnit.SECONDS)).isTrue();

        threadCpu.put(ours.getId(), 300 * MS);
        threadCpu.put(application.getId(), 5_000 * MS); // not made by the profiler: never its own
        assertThat(own.cpuNanos()).isEqualTo(300 * MS);
        threadCpu.remove(ours.getId()); // a read that fails (-1) is ignored, not counted as a drop
        assertThat(own.cpuNanos()).isEqualTo(300 * MS);

        threadCpu.put(ours.getId(), 500 * MS);
        release.countDown();
        ours.join(10_000);
        application.join(10_000);
        assertThat(ours.isAlive()).isFalse();
        // Read by the thread itself as it ended; it stays counted once the reader no longer knows the thread.
        threadCpu.clear();
        assertThat(own.cpuNanos()).isEqualTo(500 * MS);
    }

    @Test
    void aThreadWhoseLastReadFailsKeepsWhatWasReadBefore() throws Exception {
        OwnCpu own = new OwnCpu(reader, null, time, OwnCpu.JIT_SETTLE);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread ours = holding(own.accountable(Thread::new), running, release);
        ours.start();
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        threadCpu.put(ours.getId(), 200 * MS);
        assertThat(own.cpuNanos()).isEqualTo(200 * MS);

        threadCpu.remove(ours.getId());
        release.countDown();
        ours.join(10_000);
        assertThat(own.cpuNanos()).as("never backwards").isEqualTo(200 * MS);
    }

    @Test
    void theJitsTimeCountsFromALaunchUntilItsSettleHasPassedAndNotOutsideIt() {
        OwnCpu own = new OwnCpu(null, jitMillis::get, time, Duration.ofSeconds(2));
        jitMillis.addAndGet(100); // the application's code being compiled: not the profiler's
        assertThat(own.cpuNanos()).isZero();
        assertThat(own.working()).isFalse();

        own.beginWork();
        jitMillis.addAndGet(300); // the engine starting, the parser compiled
        assertThat(own.cpuNanos()).isEqualTo(300 * MS);
        own.endWork();
        time.advance(Duration.ofSeconds(1));
        jitMillis.addAndGet(50); // the burst after the profile is stored
        assertThat(own.cpuNanos()).isEqualTo(350 * MS);
        assertThat(own.working()).isTrue();

        time.advance(Duration.ofSeconds(1));
        jitMillis.addAndGet(20);
        // The reading at the settle's end closes the window: what the JIT did up to it still counts.
        assertThat(own.cpuNanos()).isEqualTo(370 * MS);
        assertThat(own.working()).isFalse();
        jitMillis.addAndGet(500);
        assertThat(own.cpuNanos()).as("after the settle: the application's").isEqualTo(370 * MS);
    }

    @Test
    void overlappingWorkSettlesOnlyAfterTheLastEnds() {
        OwnCpu own = new OwnCpu(null, jitMillis::get, time, Duration.ofSeconds(2));
        own.beginWork();
        own.beginWork(); // an on-demand launch while a reference records
        own.endWork();
        time.advance(Duration.ofSeconds(10));
        jitMillis.addAndGet(40);
        assertThat(own.cpuNanos()).isEqualTo(40 * MS);
        assertThat(own.working()).isTrue();

        own.endWork();
        time.advance(Duration.ofSeconds(2));
        jitMillis.addAndGet(10);
        assertThat(own.cpuNanos()).isEqualTo(50 * MS);
        jitMillis.addAndGet(10);
        assertThat(own.cpuNanos()).isEqualTo(50 * MS);
        own.endWork(); // one too many: no harm
        assertThat(own.working()).isFalse();
    }

    @Test
    void aJitReadThatFailsIsNotAJump() {
        AtomicLong scripted = new AtomicLong(1_000);
        OwnCpu own = new OwnCpu(null, scripted::get, time, Duration.ofSeconds(2));
        own.beginWork();
        scripted.set(-1);
        assertThat(own.cpuNanos()).isZero();
        scripted.set(1_030);
        assertThat(own.cpuNanos()).isEqualTo(30 * MS);
    }

    @Test
    void withoutJitTimesOrThreadTimesNothingIsCounted() throws Exception {
        OwnCpu own = new OwnCpu(null, null, time, OwnCpu.JIT_SETTLE);
        own.beginWork();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread ours = holding(own.accountable(Thread::new), running, release);
        ours.start();
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(own.cpuNanos()).isZero();
        release.countDown();
        ours.join(10_000);
        own.endWork();
        assertThat(own.cpuNanos()).isZero();
    }
}
