package dev.cpuprofiler.internal.testing;

import dev.cpuprofiler.internal.threads.SaturationReading;
import java.util.Optional;

import dev.cpuprofiler.internal.baseline.RollingBaseline;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.cpu.CpuSampler;
import dev.cpuprofiler.internal.cpu.EffectiveCpuCount;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.internal.session.SessionLauncher;
import dev.cpuprofiler.SessionOutcome;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.trigger.Holds;
import dev.cpuprofiler.internal.trigger.SessionCoordinator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.LongToDoubleFunction;

/**
 * The real sampler, baseline and session coordinator driven second by second on fake time: the CPU load is a function
 * of the elapsed second, the trigger is polled every polling interval, and sessions are fakes the test ends.
 */
public final class MonitoringSimulation {

    public final FakeTime time = new FakeTime();
    public final FakeCpuSource source = new FakeCpuSource();
    public final EffectiveCpuCount cpus;
    public final CpuSampler sampler;
    public final RollingBaseline baseline;
    public final Holds holds = new Holds();
    public final SessionCoordinator coordinator;
    public final List<FakeSession> sessions = new ArrayList<>();
    public final List<Long> launchSeconds = new ArrayList<>();
    /** The saturation trigger's reading the trigger sees (the thread tracker's, in production); null for none. */
    public volatile SaturationReading saturation;
    /** The endpoint whose requests are slow now, or null. */
    public volatile dev.cpuprofiler.internal.requests.LatencyRule.SlowEndpoint slow;
    /** Whether the CPU is rising above its normal (the look-back armed, in production). */
    public volatile boolean rising;
    private final CpuProfilerOptions options;
    private SessionLauncher launcher;
    /** What runs the launches a poll makes: at once, on the polling thread, unless the test says otherwise. */
    public volatile Executor launches = Runnable::run;
    private volatile SessionOutcome lastOutcome;
    private long second;

    public MonitoringSimulation(CpuProfilerOptions options, double cpus) {
        this.options = options.validate();
        this.cpus = new EffectiveCpuCount(cpus, "test");
        this.sampler = new CpuSampler(source, this.cpus, options.getSamplingInterval(), time, Thread::new);
        this.baseline = new RollingBaseline(options.getRollingHistorySize(), options.getRollingHistoryInterval(),
                options.getAverageWindow(), options.getSamplingInterval(), this.cpus);
        sampler.addListener(baseline);
        this.launcher = (trigger, duration) -> newSession(trigger, duration);
        this.coordinator = new SessionCoordinator(options, cpus, baseline::average,
                () -> Optional.ofNullable(saturation), () -> rising, () -> Optional.ofNullable(slow), holds,
                (trigger, duration) -> launcher.launch(trigger, duration), time);
        coordinator.addListener((trigger, session, outcome) -> lastOutcome = outcome);
        sampler.tick(); // t = 0: the sampler's starting point
    }

    /** How the last session ended, if one did (as its end listeners were told). */
    public Optional<SessionOutcome> lastOutcome() {
        return Optional.ofNullable(lastOutcome);
    }

    public void launcher(SessionLauncher launcher) {
        this.launcher = launcher;
    }

    public RunningSession newSession(SessionTrigger trigger, Duration duration) {
        FakeSession s = new FakeSession("s" + (sessions.size() + 1), trigger, time.instant(), duration);
        sessions.add(s);
        launchSeconds.add(second);
        return s;
    }

    /** Runs {@code seconds} more seconds with the given load (percent of the effective CPUs, by second). */
    public void run(long seconds, LongToDoubleFunction loadPercentAtSecond) {
        long pollEvery = options.getPollingInterval().toSeconds();
        for (long i = 0; i < seconds; i++) {
            double load = loadPercentAtSecond.applyAsDouble(second);
            source.add((long) (load / 100.0 * cpus.count() * 1_000_000_000L));
            time.advance(Duration.ofSeconds(1));
            second++;
            sampler.tick();
            if (second % pollEvery == 0) {
                coordinator.poll(launches);
            }
        }
    }

    /** When the cooldown ends, if one is in force now. */
    public Optional<Instant> cooldownUntil() {
        return holds.cooldownUntil(time.instant());
    }

    /** Time left in the cooldown, if one is in force now. */
    public Optional<Duration> cooldownRemaining() {
        return holds.cooldownRemaining(time.instant());
    }

    public long second() {
        return second;
    }

    public FakeSession lastSession() {
        return sessions.get(sessions.size() - 1);
    }
}
