package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.SessionStartException;
import dev.cpuprofiler.internal.threads.SaturationReading;
import java.time.Duration;

import dev.cpuprofiler.SessionAlreadyRunningException;
import dev.cpuprofiler.CpuProfilerStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.InvalidOptionException;
import dev.cpuprofiler.internal.testing.LogCapture;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.FakeSession;
import dev.cpuprofiler.internal.testing.MonitoringSimulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionCoordinatorTest {

    /** The defaults, but no reference of normal: ReferenceOfNormalTest has those, and they would start in calm spells. */
    private static CpuProfilerOptions defaults() {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.getReference().setEnabled(false);
        return options;
    }

    @Test
    void sustainedLoadAboveThresholdStartsASessionWithinAverageWindowPlusPollingInterval() {
        CpuProfilerOptions options = defaults();
        options.setThreshold(80);
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);

        sim.run(60, s -> 85);

        assertThat(sim.sessions).isNotEmpty();
        long bound = options.getAverageWindow().plus(options.getPollingInterval()).toSeconds();
        assertThat(sim.launchSeconds.get(0)).isLessThanOrEqualTo(bound);
        assertThat(sim.sessions.get(0).trigger()).isEqualTo(SessionTrigger.CPU);
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.PROFILING);
    }

    /** One thread pinned at 97% of a core for 40 s of a 60-s window, as the tracker would report it. */
    private static SaturationReading pinned() {
        return new SaturationReading(42, "event-loop-1", 97.0, Duration.ofSeconds(40));
    }

    @Test
    void aPinnedThreadStartsASaturationSessionWhileTheCpuStaysLowAndNotAgainInItsCooldown() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 4);
        sim.saturation = new SaturationReading(42, "event-loop-1", 60.0, null); // hot, not pinned
        sim.run(60, s -> 25);
        assertThat(sim.sessions).isEmpty();

        sim.saturation = pinned();
        sim.run(10, s -> 25);
        assertThat(sim.sessions).hasSize(1);
        assertThat(sim.sessions.get(0).trigger()).isEqualTo(SessionTrigger.SATURATION);
        assertThat(sim.baseline.average().getAsDouble()).isLessThan(30.0);

        sim.lastSession().complete(sim.time.instant());
        sim.run(600, s -> 25);
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        assertThat(sim.sessions).as("saturation during the cooldown starts nothing").hasSize(1);
    }

    @Test
    void theCpuTriggerKeepsPrecedenceWhenBothHold() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);
        sim.run(29, s -> 85); // no baseline before the first 30-s slot: nothing can trigger yet
        assertThat(sim.sessions).isEmpty();
        sim.saturation = pinned(); // from the next poll (30 s) on, both hold
        sim.run(30, s -> 85);
        assertThat(sim.sessions).hasSize(1);
        assertThat(sim.sessions.get(0).trigger()).isEqualTo(SessionTrigger.CPU);
    }

    @Test
    void saturationEnabledFalseOrTheCpuTriggerOffStartsNothing() {
        CpuProfilerOptions off = defaults();
        off.getSaturation().setEnabled(false);
        MonitoringSimulation sim = new MonitoringSimulation(off, 4);
        sim.saturation = pinned();
        sim.run(120, s -> 25);
        assertThat(sim.sessions).isEmpty();

        CpuProfilerOptions triggerOff = defaults();
        triggerOff.setEnabled(false);
        MonitoringSimulation disabled = new MonitoringSimulation(triggerOff, 4);
        disabled.saturation = pinned();
        disabled.run(120, s -> 25);
        assertThat(disabled.sessions).isEmpty();
        assertThat(disabled.coordinator.state()).isEqualTo(CpuProfilerStatus.State.DISABLED);
    }

    @Test
    void loadStartingMidIntervalIsCaughtWithinOneMoreInterval() {
        CpuProfilerOptions options = defaults();
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);
        sim.run(47, s -> 10);
        assertThat(sim.sessions).isEmpty();

        sim.run(120, s -> 85);

        // A slot that straddles the load's start averages below the threshold, so the worst case is
        // average-window + rolling-history-interval + polling-interval (docs/how-it-works.md, "Detection latency").
        long bound = options.getAverageWindow().plus(options.getRollingHistoryInterval())
                .plus(options.getPollingInterval()).toSeconds();
        assertThat(sim.launchSeconds.get(0) - 47).isBetween(1L, bound);
    }

    @Test
    void oneSecondSpikeToFullCpuDoesNotStartASessionWithDefaults() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);

        sim.run(600, s -> s == 100 ? 100 : 10);

        assertThat(sim.sessions).isEmpty();
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
        assertThat(sim.baseline.average()).isPresent();
    }

    @Test
    void averageEqualToThresholdDoesNotTrigger() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);

        sim.run(300, s -> 80);

        assertThat(sim.baseline.average().getAsDouble()).isEqualTo(80.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(sim.sessions).isEmpty();
    }

    @Test
    void nothingStartsBeforeTheFirstBaselineInterval() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);

        sim.run(25, s -> 100);

        assertThat(sim.baseline.average()).isEmpty();
        assertThat(sim.sessions).isEmpty();
    }

    @Test
    void cooldownHoldsFromTheSessionsEndThenMonitoringResumes() {
        CpuProfilerOptions options = defaults();
        options.setCooldown(Duration.ofMinutes(10));
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);
        sim.run(40, s -> 95);
        FakeSession first = sim.lastSession();
        sim.run(30, s -> 95);
        first.complete(sim.time.instant());
        long endedAt = sim.second();
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        assertThat(sim.cooldownUntil()).contains(sim.time.instant().plus(Duration.ofMinutes(10)));

        sim.run(599, s -> 95);
        assertThat(sim.sessions).hasSize(1);
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        assertThat(sim.cooldownRemaining()).hasValue(Duration.ofSeconds(1));

        sim.run(10, s -> 95);
        assertThat(sim.sessions).hasSize(2);
        assertThat(sim.launchSeconds.get(1)).isBetween(endedAt + 600, endedAt + 600 + 5);
    }

    @Test
    void aLatencyProfileThatEndsWithTheCpuOverItsThresholdIsTheCpuIncidentsOneProfile() {
        CpuProfilerOptions options = defaults();
        options.setStartupGrace(Duration.ZERO);
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);
        sim.run(40, s -> 20);
        sim.slow = new dev.cpuprofiler.internal.requests.LatencyRule.SlowEndpoint("GET /orders", 40, 30, 600, 200,
                null);
        sim.run(10, s -> 20);
        assertThat(sim.sessions).as("slow requests, the CPU calm").hasSize(1);
        assertThat(sim.lastSession().trigger()).isEqualTo(SessionTrigger.LATENCY);
        sim.run(60, s -> 95); // the load's CPU rises past the threshold while the LATENCY session records
        sim.lastSession().complete(sim.time.instant());
        assertThat(sim.cooldownUntil()).as("the CPU trigger's cooldown started by the LATENCY session's end")
                .contains(sim.time.instant().plus(options.getCooldown()));
        sim.run(120, s -> 95);
        assertThat(sim.sessions).as("one incident, one profile").hasSize(1);

        MonitoringSimulation calm = new MonitoringSimulation(options, 2);
        calm.run(40, s -> 20);
        calm.slow = sim.slow;
        calm.run(10, s -> 20);
        calm.lastSession().complete(calm.time.instant());
        assertThat(calm.cooldownUntil()).as("requests slow by waiting: the CPU trigger stays free").isEmpty();
        calm.slow = null;
        calm.run(60, s -> 95);
        assertThat(calm.sessions).hasSize(2);
        assertThat(calm.lastSession().trigger()).isEqualTo(SessionTrigger.CPU);
    }

    @Test
    void sessionThatThrowsAtLaunchStillLeadsToCooldownThenMonitoring() {
        CpuProfilerOptions options = defaults();
        options.setCooldown(Duration.ofMinutes(2));
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);
        List<SessionOutcome> outcomes = new ArrayList<>();
        sim.coordinator.addListener((trigger, session, outcome) -> outcomes.add(outcome));
        sim.launcher((trigger, duration) -> {
            throw new IllegalStateException("engine exploded");
        });

        sim.run(40, s -> 95);

        assertThat(outcomes).hasSize(1);
        assertThat(outcomes.get(0).status()).isEqualTo(SessionOutcome.Status.FAILED);
        assertThat(outcomes.get(0).reason())
                .isEqualTo("session could not start (IllegalStateException; the application's log has the details)");
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);

        sim.run(125, s -> 10);
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
    }

    @Test
    void sessionThatFailsWhileRecordingLeadsToCooldownThenMonitoring() {
        CpuProfilerOptions options = defaults();
        options.setCooldown(Duration.ofMinutes(1));
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);
        sim.run(40, s -> 95);
        sim.lastSession().fail("recording thread died: OutOfMemoryError", sim.time.instant());

        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        assertThat(sim.lastOutcome()).hasValueSatisfying(o -> assertThat(o.reason()).contains("thread died"));
        sim.run(61, s -> 10);
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
    }

    @Test
    void sessionThatNeverEndsIsCancelledByTheWatchdog() {
        CpuProfilerOptions options = defaults();
        options.setCooldown(Duration.ofMinutes(1));
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);
        sim.run(40, s -> 95);
        FakeSession hung = sim.lastSession();

        sim.run(30 + 30 + 10, s -> 95);

        assertThat(hung.cancelReason()).contains("did not end");
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        assertThat(sim.lastOutcome()).hasValueSatisfying(o -> assertThat(o.failed()).isTrue());
        // The hung session completing late changes nothing.
        hung.complete(sim.time.instant());
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
    }

    @Test
    void aCounterThatGoesBackwardsNeitherTriggersNorPoisonsTheBaseline() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);
        sim.run(120, s -> 50);
        // The cgroup is recreated (its usage restarts from zero) while the process keeps running.
        sim.source.set(1_000_000L);
        sim.run(60, s -> 50);

        assertThat(sim.sessions).as("a counter reset is no burst").isEmpty();
        // The second of the reset counts as nothing: its 30 s slot dips a little (48.3%), it neither collapses to
        // nothing nor jumps, and the slots after it are exact again.
        assertThat(sim.baseline.history()).hasSize(6)
                .allSatisfy(slot -> assertThat(slot.percent()).isBetween(45.0, 50.01));
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.MONITORING);

        sim.run(40, s -> 95);
        assertThat(sim.sessions).as("the trigger still fires after the reset").hasSize(1);
        assertThat(sim.launchSeconds.get(0)).isBetween(180L + 30, 180L + 30 + 5);
    }

    @Test
    void shutdownStopsTheRunningSessionKeepingItsProfileAndStartsNoOther() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);
        sim.run(40, s -> 95);
        FakeSession running = sim.lastSession();

        assertThat(sim.coordinator.shutDown("the profiler is shutting down")).containsSame(running);
        running.complete(sim.time.instant());
        sim.run(600, s -> 99);

        assertThat(running.stopEarlyReason()).isEqualTo(CpuProfiler.CUT_SHORT_BY_SHUTDOWN);
        assertThat(running.cancelReason()).as("its recording is not thrown away").isNull();
        assertThat(sim.holds.isShutDown()).as("the look-back reads it: it resumes no more").isTrue();
        assertThat(sim.sessions).as("no CPU-triggered session after shutdown").hasSize(1);
        assertThatThrownBy(() -> sim.coordinator.startOnDemand(Duration.ofSeconds(5)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("shutting down");
        assertThat(sim.sessions).hasSize(1);
    }

    @Test
    void onDemandSessionsRunOneAtATimeAndStartNoCooldown() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);
        sim.run(10, s -> 5);

        var s1 = sim.coordinator.startOnDemand(Duration.ofSeconds(20));
        assertThat(s1.trigger()).isEqualTo(SessionTrigger.MANUAL);
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.PROFILING);
        assertThatThrownBy(() -> sim.coordinator.startOnDemand(Duration.ofSeconds(5)))
                .isInstanceOf(SessionAlreadyRunningException.class);

        ((FakeSession) s1).complete(sim.time.instant());
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
        assertThat(sim.cooldownUntil()).isEmpty();
    }

    @Test
    void anOnDemandDurationOutsideOneSecondToOneHourStartsNothing() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);
        for (Duration d : List.of(Duration.ofMillis(999), Duration.ofMinutes(61))) {
            assertThatThrownBy(() -> sim.coordinator.startOnDemand(d)).isInstanceOfSatisfying(
                    InvalidOptionException.class, e -> assertThat(e.getMessage()).isEqualTo("Invalid value '" + d
                            + "' for duration: must be between 1s and 1h"));
        }
        assertThat(sim.sessions).isEmpty();
        assertThat(sim.coordinator.startOnDemand(Duration.ofHours(1)).duration()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void highCpuDuringAnOnDemandSessionStartsNoSecondSession() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);
        sim.coordinator.startOnDemand(Duration.ofMinutes(5));

        sim.run(120, s -> 99);

        assertThat(sim.sessions).hasSize(1);
    }

    @Test
    void disabledTriggerNeverStartsButOnDemandWorks() {
        CpuProfilerOptions options = defaults();
        options.setEnabled(false);
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);

        sim.run(300, s -> 100);
        assertThat(sim.sessions).isEmpty();
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.DISABLED);
        assertThat(sim.baseline.average().getAsDouble()).isGreaterThan(99);

        var s = sim.coordinator.startOnDemand(Duration.ofSeconds(10));
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.PROFILING);
        ((FakeSession) s).complete(sim.time.instant());
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.DISABLED);
    }

    @Test
    void onDemandDuringCooldownKeepsTheCooldown() {
        CpuProfilerOptions options = defaults();
        options.setCooldown(Duration.ofMinutes(30));
        MonitoringSimulation sim = new MonitoringSimulation(options, 2);
        sim.run(40, s -> 95);
        sim.lastSession().complete(sim.time.instant());
        var until = sim.cooldownUntil();

        var manual = sim.coordinator.startOnDemand(Duration.ofSeconds(10));
        ((FakeSession) manual).complete(sim.time.instant());

        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.COOLDOWN);
        assertThat(sim.cooldownUntil()).isEqualTo(until);
    }

    @Test
    void logsTheValueItSeesAndWhyASessionStartsOrNot() {
        try (LogCapture logs = new LogCapture()) {
            MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);
            sim.run(30, s -> 50);
            sim.run(30, s -> 90);
            assertThat(logs.messages(Level.DEBUG))
                    .contains("Getting current CPU usage: no baseline yet (first rolling interval not complete)")
                    .contains("Getting current CPU usage: 50.0")
                    .contains("CPU average 50.0% is not above the threshold 80.0%: not profiling");
            assertThat(logs.messages(Level.INFO)).contains(
                    "CPU average 90.0% is above the threshold 80.0%: starting a CPU-triggered profiling session for PT30S");
        }
    }

    @Test
    void onDemandLaunchFailureIsReportedToTheCaller() {
        MonitoringSimulation sim = new MonitoringSimulation(defaults(), 2);
        sim.launcher((t, d) -> {
            throw new IllegalStateException("no engine");
        });

        // The message is served (a 503): the exception's text, which may hold anything, stays in the log.
        assertThatThrownBy(() -> sim.coordinator.startOnDemand(Duration.ofSeconds(5)))
                .isInstanceOf(SessionStartException.class)
                .hasMessage("session could not start (IllegalStateException; the application's log has the details)");
        assertThat(sim.coordinator.state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
        assertThat(sim.cooldownUntil()).isEmpty();
    }
}
