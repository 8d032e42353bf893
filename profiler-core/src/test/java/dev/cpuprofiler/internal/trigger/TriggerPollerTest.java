package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.SessionAlreadyRunningException;
import dev.cpuprofiler.CpuProfilerStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.FakeSession;
import dev.cpuprofiler.internal.testing.FakeTime;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The trigger checked on the CPU sampler's tick: polled on time, and a launch never holds the sampler up. */
class TriggerPollerTest {

    private static final Duration SECOND = Duration.ofSeconds(1);

    private final FakeTime time = new FakeTime();
    private final AtomicInteger averageReads = new AtomicInteger();
    private volatile double average = 10;
    private final List<FakeSession> launched = new CopyOnWriteArrayList<>();
    private final CountDownLatch engineStarted = new CountDownLatch(1);
    private final CountDownLatch releaseLaunch = new CountDownLatch(1);
    private volatile boolean slowLaunch;
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final ThreadFactory threadFactory = r -> {
        Thread t = new Thread(r, "cpuprofiler-policy");
        t.setDaemon(true);
        threads.add(t);
        return t;
    };

    private final SessionCoordinator coordinator = new SessionCoordinator(options(), 2,
            () -> {
                averageReads.incrementAndGet();
                return OptionalDouble.of(average);
            }, Optional::empty, () -> false, Optional::empty, new Holds(),
            (trigger, duration) -> {
                if (slowLaunch) {
                    // The look-back handing over, an engine starting: as long as the test wants.
                    engineStarted.countDown();
                    awaitQuietly(releaseLaunch);
                }
                FakeSession s = new FakeSession("s" + (launched.size() + 1), trigger, time.instant(), duration);
                launched.add(s);
                return s;
            }, time);
    private final AtomicReference<SessionOutcome> lastOutcome = new AtomicReference<>();

    {
        coordinator.addListener((trigger, session, outcome) -> lastOutcome.set(outcome));
    }

    /** Threshold 80, cooldown 10 min, duration 30 s, no start-up grace, no saturation trigger, no references. */
    private static CpuProfilerOptions options() {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setThreshold(80);
        options.setCooldown(Duration.ofMinutes(10));
        options.setDuration(Duration.ofSeconds(30));
        options.setStartupGrace(Duration.ZERO);
        options.getSaturation().setEnabled(false);
        options.getReference().setEnabled(false);
        return options;
    }

    private long second;

    @AfterEach
    void releaseEverything() {
        releaseLaunch.countDown();
    }

    /** The sampler's thread: {@code seconds} more samples, one a second, each told to the poller. */
    private void sample(TriggerPoller poller, int seconds) {
        for (int i = 0; i < seconds; i++) {
            time.advance(SECOND);
            second++;
            poller.onSample(time.nanoTime(), 0, 10);
        }
    }

    /** CPU above the threshold for long enough: the poller launches a session, held in its engine's start. */
    private TriggerPoller aLaunchHeldUnderWay() throws InterruptedException {
        TriggerPoller poller = poller(threadFactory);
        sample(poller, 30);
        average = 95;
        slowLaunch = true;
        sample(poller, 5);
        assertThat(engineStarted.await(10, TimeUnit.SECONDS)).isTrue();
        return poller;
    }

    private TriggerPoller poller(ThreadFactory launchThreads) {
        TriggerPoller poller = new TriggerPoller(coordinator, Duration.ofSeconds(5), SECOND, launchThreads);
        poller.onSample(time.nanoTime(), 0, Double.NaN); // the sampler's first sample
        return poller;
    }

    @Test
    void checksTheTriggerEveryPollingIntervalOfSampleTime() {
        TriggerPoller poller = poller(threadFactory);

        sample(poller, 4);
        assertThat(averageReads).as("no check before one polling interval").hasValue(0);
        sample(poller, 56);
        assertThat(averageReads).as("one check every 5 s over a minute").hasValue(12);

        // Samples a little early or late (a busy machine) still give one check per interval, not one more or fewer.
        for (int i = 0; i < 60; i++) {
            time.advance(SECOND.plusMillis(i % 2 == 0 ? 30 : -30));
            poller.onSample(time.nanoTime(), 0, 10);
        }
        assertThat(averageReads).hasValue(24);
        assertThat(threads).as("nothing to launch, no thread").isEmpty();
    }

    @Test
    void aLaunchRunsOnAThreadOfItsOwnWhileTheSamplerGoesOnAndNoSecondLaunchStarts() throws Exception {
        TriggerPoller poller = aLaunchHeldUnderWay();
        // The sampler's thread came back although the launch is still under way.
        assertThat(threads).extracting(Thread::getName).containsExactly("cpuprofiler-policy");
        assertThat(coordinator.state()).as("a launch under way counts as profiling").isEqualTo(CpuProfilerStatus.State.PROFILING);
        sample(poller, 20);
        CompletableFuture<Throwable> onDemand = CompletableFuture.supplyAsync(() -> {
            try {
                coordinator.startOnDemand(Duration.ofSeconds(10));
                return null;
            } catch (RuntimeException e) {
                return e;
            }
        });

        releaseLaunch.countDown();
        assertThat(onDemand.get(10, TimeUnit.SECONDS)).as("an on-demand start waits for the launch, then is refused")
                .isInstanceOf(SessionAlreadyRunningException.class);
        assertThat(launched).hasSize(1);
        assertThat(coordinator.activeSession()).map(RunningSession::trigger).hasValue(SessionTrigger.CPU);
        assertThat(coordinator.state()).isEqualTo(CpuProfilerStatus.State.PROFILING);
        threads.get(0).join(10_000);
        assertThat(threads.get(0).isAlive()).as("the launch's thread ends with the launch").isFalse();

        launched.get(0).complete(time.instant());
        assertThat(coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        sample(poller, 60);
        assertThat(launched).as("the cooldown holds").hasSize(1);
    }

    @Test
    void readingTheTriggerNeverWaitsForALaunchUnderWay() throws Exception {
        aLaunchHeldUnderWay();

        // What a status request and a metrics scrape read, from threads of their own, while the launch is held: the
        // launch is released only after they answered, so one that waited for it would time out here.
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> coordinator.state() + " "
                + coordinator.activeSession().isPresent() + " "
                + coordinator.holds().cooldownRemaining(time.instant()).isPresent() + " "
                + Optional.ofNullable(lastOutcome.get()).isPresent());
        assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo("PROFILING false false false");

        releaseLaunch.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.activeSession().isPresent());
        assertThat(coordinator.activeSession()).map(RunningSession::trigger).hasValue(SessionTrigger.CPU);
    }

    @Test
    void aLaunchWithNoThreadToRunOnFailsAndStartsTheCooldown() {
        List<SessionOutcome> outcomes = new CopyOnWriteArrayList<>();
        coordinator.addListener((trigger, session, outcome) -> outcomes.add(outcome));
        TriggerPoller poller = poller(r -> {
            throw new OutOfMemoryError("unable to create native thread: possibly out of memory");
        });
        sample(poller, 30);
        average = 95;

        sample(poller, 5);

        assertThat(launched).isEmpty();
        assertThat(outcomes).singleElement().satisfies(o -> {
            assertThat(o.status()).isEqualTo(SessionOutcome.Status.FAILED);
            // The reason is served: the error's type, its text in the log only.
            assertThat(o.reason()).isEqualTo(
                    "session could not start (OutOfMemoryError; the application's log has the details)");
        });
        assertThat(coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        // Not stuck: an on-demand profile still starts.
        assertThat(coordinator.startOnDemand(Duration.ofSeconds(5)).trigger()).isEqualTo(SessionTrigger.MANUAL);
    }

    @Test
    void theWatchdogStillCancelsASessionStuckPastItsDuration() {
        TriggerPoller poller = poller(threadFactory);
        sample(poller, 30);
        average = 95;
        sample(poller, 5);
        await().atMost(Duration.ofSeconds(10)).until(() -> coordinator.activeSession().isPresent());
        FakeSession hung = launched.get(0);

        sample(poller, 30 + 30 + 10);

        assertThat(hung.cancelReason()).contains("did not end");
        assertThat(coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        assertThat(Optional.ofNullable(lastOutcome.get())).hasValueSatisfying(o -> assertThat(o.failed()).isTrue());
    }

    @Test
    void aShutdownWaitsForALaunchUnderWayAndStopsItsSessionEarly() throws Exception {
        TriggerPoller poller = aLaunchHeldUnderWay();

        CompletableFuture<Void> shutDown = CompletableFuture.runAsync(() -> coordinator.shutDown("closing"));
        releaseLaunch.countDown();
        shutDown.get(10, TimeUnit.SECONDS);

        assertThat(launched).singleElement().satisfies(s -> assertThat(s.stopEarlyReason())
                .isEqualTo(CpuProfiler.CUT_SHORT_BY_SHUTDOWN));
        sample(poller, 60);
        assertThat(launched).as("nothing starts after the shutdown").hasSize(1);
    }

    @Test
    void aLaunchThatHangsHoldsTheShutdownNoLongerThanItsBoundAndStopsItsOwnSessionLater() throws Exception {
        TriggerPoller poller = aLaunchHeldUnderWay();

        // The engine's start hangs: the shutdown goes on after its bound, with no session to stop.
        long before = System.nanoTime();
        assertThat(coordinator.shutDown("closing", Duration.ofMillis(200))).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(Duration.ofMillis(200))
                .isLessThan(Duration.ofSeconds(5));

        // When the engine finally starts, the launch sees the shutdown and stops its session, keeping what it took.
        releaseLaunch.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> !launched.isEmpty()
                && launched.get(0).stopEarlyReason() != null);
        assertThat(launched.get(0).stopEarlyReason()).isEqualTo(CpuProfiler.CUT_SHORT_BY_SHUTDOWN);
        sample(poller, 60);
        assertThat(launched).as("nothing starts after the shutdown").hasSize(1);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
