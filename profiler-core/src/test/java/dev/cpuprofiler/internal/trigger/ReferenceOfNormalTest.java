package dev.cpuprofiler.internal.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.FakeSession;
import dev.cpuprofiler.internal.testing.LogCapture;
import dev.cpuprofiler.internal.testing.MonitoringSimulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The reference of normal as the coordinator runs it, on simulated time (the real sampler, baseline and coordinator,
 * sessions the test ends): recorded while calm, renewed after the refresh, never in the way of an incident or a user,
 * and retried after a failure no more often than its back-off.
 */
class ReferenceOfNormalTest {

    /**
     * Every default: a 10-s reference, refreshed hourly, once calm for the 30-s average window; the trigger at 80%;
     * 30-s baseline slots, polled every 5 s; 2 CPUs, so a reference needs an average of 1% at least.
     */
    private final CpuProfilerOptions options = new CpuProfilerOptions();
    private final List<String> ends = new CopyOnWriteArrayList<>();

    private MonitoringSimulation simulation() {
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);
        // As a real session does: cancelling it ends it, failed.
        sim.launcher((trigger, duration) -> ((FakeSession) sim.newSession(trigger, duration))
                .endsWhenCancelled(sim.time));
        sim.coordinator.addListener((trigger, session, outcome) -> ends.add(trigger + " " + outcome.status()
                + (outcome.reason() == null ? "" : ": " + outcome.reason())));
        return sim;
    }

    @Test
    void aCalmApplicationRecordsAReferenceOnceCalmForAWholeAverageWindowThenAgainAfterTheRefresh() {
        MonitoringSimulation sim = simulation();

        sim.run(59, s -> 10);
        assertThat(sim.sessions).as("no baseline before the first 30-s slot, then calm for less than 30 s").isEmpty();
        sim.run(1, s -> 10);
        assertThat(sim.sessions).hasSize(1);
        FakeSession reference = sim.lastSession();
        assertThat(reference.trigger()).isEqualTo(SessionTrigger.REFERENCE);
        assertThat(reference.duration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(sim.launchSeconds).containsExactly(60L);

        sim.run(10, s -> 10);
        reference.complete(sim.time.instant()); // at 70 s
        assertThat(sim.coordinator.state()).as("a reference starts no cooldown")
                .isEqualTo(CpuProfilerStatus.State.MONITORING);
        assertThat(sim.cooldownUntil()).isEmpty();
        assertThat(sim.holds.lastReference()).hasValue(sim.time.instant());

        sim.run(3625, s -> 10); // up to 3695 s: due at 3670 s, when the last is an hour old, calm since
        assertThat(sim.sessions).as("none until the last is an hour old, and then calm for 30 s").hasSize(1);
        sim.run(5, s -> 10);
        assertThat(sim.sessions).hasSize(2);
        assertThat(sim.lastSession().trigger()).isEqualTo(SessionTrigger.REFERENCE);
        assertThat(sim.launchSeconds).containsExactly(60L, 3700L);
    }

    @Test
    void anIdleApplicationGetsNoReferenceAndOneLeavingItsIdleStretchOnlyOnceCalmForAWholeWindow() {
        MonitoringSimulation sim = simulation();
        sim.run(3600, s -> 0.3); // an idle JVM's 0.3% of 2 CPUs: 6 samples in a 10-s reference
        assertThat(sim.sessions).as("idle for an hour").isEmpty();

        // Load begins: the average is over the floor at the next slot's end (3630 s), but that is no normal yet.
        sim.run(59, s -> 20);
        assertThat(sim.sessions).as("busy, calm for less than 30 s").isEmpty();
        sim.run(1, s -> 20);
        assertThat(sim.launchSeconds).containsExactly(3660L);
    }

    @Test
    void aRiseBreaksTheCalmStreak() {
        MonitoringSimulation sim = simulation();
        sim.run(50, s -> 10);
        sim.rising = true; // one poll: the look-back armed
        sim.run(5, s -> 10);
        sim.rising = false;
        sim.run(34, s -> 10); // up to 89 s: calm again since the 60-s poll
        assertThat(sim.sessions).isEmpty();
        sim.run(1, s -> 10);
        assertThat(sim.launchSeconds).containsExactly(90L);
    }

    @Test
    void aDueReferenceWaitsForTheGraceAndForCalm() {
        MonitoringSimulation sim = simulation();
        sim.coordinator.monitoringStarted(); // the 1-min start-up grace
        sim.run(55, s -> 10);
        assertThat(sim.sessions).as("in the start-up grace").isEmpty();

        sim.rising = true; // the look-back armed: the CPU climbs above its normal
        sim.run(30, s -> 10);
        assertThat(sim.sessions).as("while the CPU rises").isEmpty();

        sim.rising = false;
        sim.run(34, s -> 10);
        assertThat(sim.sessions).as("calm again since 90 s, not yet for 30 s").isEmpty();
        sim.run(1, s -> 10);
        assertThat(sim.sessions).extracting(RunningSession::trigger).containsExactly(SessionTrigger.REFERENCE);
        assertThat(sim.launchSeconds).containsExactly(120L);
    }

    @Test
    void theCpuTriggerCancelsARecordingReferenceAndStartsInTheSamePoll() {
        MonitoringSimulation sim = simulation();
        sim.run(60, s -> 10);
        FakeSession reference = sim.lastSession();
        assertThat(reference.trigger()).isEqualTo(SessionTrigger.REFERENCE);

        // Load rises; the reference, still recording (the test never ends it), is in the way of the 90-s poll.
        sim.run(30, s -> 95);

        assertThat(sim.sessions).extracting(RunningSession::trigger)
                .containsExactly(SessionTrigger.REFERENCE, SessionTrigger.CPU);
        assertThat(sim.launchSeconds).containsExactly(60L, 90L);
        assertThat(reference.cancelReason()).isEqualTo("a CPU-triggered session starts: the application is no longer "
                + "calm");
        assertThat(ends).containsExactly("REFERENCE FAILED: cancelled: a CPU-triggered session starts: the "
                + "application is no longer calm");
        assertThat(sim.holds.lastReference()).as("a cancelled reference is not kept").isEmpty();
        assertThat(sim.coordinator.activeSession()).containsSame(sim.lastSession());

        // The incident's session ends, its cooldown holds the trigger; once calm, the reference is tried again, no
        // sooner than 5 min after it was cancelled (at 90 s), and once calm for 30 s from then.
        sim.run(30, s -> 95);
        sim.lastSession().complete(sim.time.instant());
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        sim.run(299, s -> 10); // up to 419 s
        assertThat(sim.sessions).hasSize(2);
        sim.run(1, s -> 10);
        assertThat(sim.sessions).extracting(RunningSession::trigger)
                .containsExactly(SessionTrigger.REFERENCE, SessionTrigger.CPU, SessionTrigger.REFERENCE);
        assertThat(sim.launchSeconds).containsExactly(60L, 90L, 420L);
    }

    /**
     * A rise that does not trigger yet is what the look-back must record, and it steps aside while any session
     * records: the reference gives way at the next poll, with nothing in its place.
     */
    @Test
    void aRecordingReferenceIsCancelledOnceTheApplicationIsNoLongerCalm() {
        MonitoringSimulation sim = simulation();
        sim.run(60, s -> 10);
        FakeSession reference = sim.lastSession();

        sim.rising = true;
        sim.run(5, s -> 10);

        assertThat(reference.cancelReason()).isEqualTo("the application is no longer calm: the CPU is rising above "
                + "its normal");
        assertThat(sim.sessions).hasSize(1);
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
        assertThat(sim.holds.referenceRetryAt(sim.time.instant())).as("tried again in 5 min at the soonest")
                .hasValue(sim.time.instant().plus(Duration.ofMinutes(5)));
    }

    @Test
    void aReferenceIsCancelledByAnAverageAboveTheThresholdInACooldownToo() {
        MonitoringSimulation sim = simulation();
        sim.holds.startCooldown(sim.time.instant().plus(Duration.ofHours(1))); // no CPU trigger for an hour
        sim.run(60, s -> 10);
        FakeSession reference = sim.lastSession();
        assertThat(reference.trigger()).as("calm is calm, in a cooldown too").isEqualTo(SessionTrigger.REFERENCE);

        sim.run(30, s -> 95);

        assertThat(reference.cancelReason()).startsWith("the application is no longer calm: the CPU average ")
                .endsWith("% is above the threshold");
        assertThat(sim.sessions).as("the cooldown holds the trigger").hasSize(1);
    }

    @Test
    void theTriggeredSessionStartsOnlyOnceTheCancelledReferenceHasEnded() throws Exception {
        MonitoringSimulation sim = simulation();
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch launched = new CountDownLatch(2);
        // A reference that takes a while to stop, as an engine deleting its recording does, on its own thread.
        Executor later = end -> new Thread(() -> {
            sleep(200);
            end.run();
        }).start();
        sim.launcher((trigger, duration) -> {
            order.add("launch " + trigger);
            launched.countDown();
            return ((FakeSession) sim.newSession(trigger, duration)).endsWhenCancelled(sim.time, later);
        });
        sim.run(60, s -> 10);
        // The launches run on threads of their own, as in production: the poll does not wait for them.
        sim.launches = launch -> new Thread(launch).start();
        sim.coordinator.addListener((trigger, session, outcome) -> order.add("ended " + trigger));
        sim.run(29, s -> 95);
        assertThat(order).containsExactly("launch REFERENCE");

        sim.run(1, s -> 95); // the 90-s poll: CPU
        assertThat(launched.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(order).containsExactly("launch REFERENCE", "ended REFERENCE", "launch CPU");
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void anOnDemandStartCancelsARecordingReferenceInsteadOfAnsweringAlreadyRunning() {
        MonitoringSimulation sim = simulation();
        sim.run(60, s -> 10);
        FakeSession reference = sim.lastSession();

        RunningSession onDemand = sim.coordinator.startOnDemand(Duration.ofSeconds(20));

        assertThat(onDemand.trigger()).isEqualTo(SessionTrigger.MANUAL);
        assertThat(reference.cancelReason()).isEqualTo("an on-demand session starts");
        assertThat(ends).containsExactly("REFERENCE FAILED: cancelled: an on-demand session starts");
        assertThat(sim.coordinator.activeSession()).containsSame(onDemand);
    }

    @Test
    void aReferenceThatCannotStartIsRetriedEveryFiveMinutesAtMostAndSaidOnceAtWarn() {
        MonitoringSimulation sim = simulation();
        List<Long> attempts = new ArrayList<>();
        sim.launcher((trigger, duration) -> {
            attempts.add(sim.second());
            throw new IllegalStateException("no engine");
        });
        try (LogCapture log = new LogCapture()) {
            sim.run(12 * 60, s -> 10);

            // Calm at every poll from 30 s on; a broken engine is asked once calm for 30 s (60 s), then each time 5 min
            // have passed and it has been calm for 30 s again: 390 s and 720 s only.
            assertThat(attempts).containsExactly(60L, 390L, 720L);
            assertThat(log.messages(Level.WARN)).filteredOn(m -> m.contains("reference of normal could not start"))
                    .hasSize(1);
            assertThat(log.count("The reference of normal could not start again")).isEqualTo(2);
        }
        assertThat(sim.lastOutcome()).get().extracting(SessionOutcome::failed).isEqualTo(true);
        assertThat(sim.coordinator.state()).as("no cooldown").isEqualTo(CpuProfilerStatus.State.MONITORING);
    }

    @Test
    void referencesOffRecordNone() {
        options.getReference().setEnabled(false);
        MonitoringSimulation sim = simulation();

        sim.run(2 * 3600, s -> 10);

        assertThat(sim.sessions).isEmpty();
    }
}
