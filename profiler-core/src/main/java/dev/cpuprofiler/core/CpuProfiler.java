package dev.cpuprofiler.core;

import dev.cpuprofiler.baseline.RollingBaseline;
import dev.cpuprofiler.cpu.CpuSampler;
import dev.cpuprofiler.cpu.CpuSourceSelector;
import dev.cpuprofiler.cpu.SelectedCpuSource;
import dev.cpuprofiler.session.DebugNonSafepointsCheck;
import dev.cpuprofiler.session.RunningSession;
import dev.cpuprofiler.session.SessionLauncher;
import dev.cpuprofiler.trigger.CpuTriggerPolicy;
import dev.cpuprofiler.trigger.SessionEndListener;
import dev.cpuprofiler.trigger.TriggerSettings;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole pipeline wired from {@link CpuProfilerOptions}: CPU source → sampler → rolling baseline →
 * trigger policy → profiling sessions. Construction picks the CPU source (one file read) and starts no
 * thread; {@link #start()} starts the sampler and policy threads; {@link #close()} stops everything.
 */
public final class CpuProfiler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CpuProfiler.class);

    private final CpuProfilerOptions options;
    private final Clock clock;
    private final ThreadFactory threadFactory;
    private final SelectedCpuSource selected;
    private final CpuSampler sampler;
    private final RollingBaseline baseline;
    private final CpuTriggerPolicy policy;
    private final DebugNonSafepointsCheck debugNonSafepoints;
    private ScheduledExecutorService policyExecutor;
    private boolean closed;

    private CpuProfiler(Builder b) {
        this.options = b.options.copy().validate();
        this.clock = b.clock;
        this.threadFactory = b.threadFactory;
        this.debugNonSafepoints = b.debugNonSafepoints;
        this.selected = new CpuSourceSelector(b.fsRoot).select(options.getSource());
        log.debug("CPU source: {} ({}), effective CPU count {} from {}", selected.source().kind().id(),
                selected.source().description(), selected.effectiveCpus().count(), selected.effectiveCpus().origin());
        this.sampler = new CpuSampler(selected.source(), selected.effectiveCpus(), options.getSamplingInterval(),
                b.ticker, new NamedThreadFactory(threadFactory, "cpuprofiler-sampler"));
        this.baseline = new RollingBaseline(options.getRollingHistorySize(), options.getRollingHistoryInterval(),
                options.getAverageWindow(), options.getSamplingInterval(), selected.effectiveCpus());
        sampler.addListener(baseline);
        SessionLauncher launcher = b.sessionLauncher.apply(this);
        this.policy = new CpuTriggerPolicy(TriggerSettings.from(options), baseline::average, launcher, clock);
    }

    public static Builder builder(CpuProfilerOptions options) {
        return new Builder(options);
    }

    /** Starts sampling and the policy checks. Idempotent. */
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (policyExecutor != null) {
            return;
        }
        debugNonSafepoints.warning().ifPresent(log::warn);
        sampler.start();
        policyExecutor = Executors.newSingleThreadScheduledExecutor(
                new NamedThreadFactory(threadFactory, "cpuprofiler-policy"));
        long poll = options.getPollingInterval().toNanos();
        policyExecutor.scheduleWithFixedDelay(policy::poll, poll, poll, TimeUnit.NANOSECONDS);
        log.info("CPU profiler started: source {}, {} effective CPUs, threshold {}%, trigger {}",
                selected.source().kind().id(), selected.effectiveCpus().count(), options.getThreshold(),
                options.isEnabled() ? "on" : "off");
    }

    /** Starts an on-demand profile. */
    public RunningSession startOnDemand(Duration duration) {
        return policy.startOnDemand(duration);
    }

    public void addSessionEndListener(SessionEndListener listener) {
        policy.addListener(listener);
    }

    public CpuProfilerStatus status() {
        double latest = sampler.latestPercent();
        OptionalDouble avg = baseline.average();
        CpuStatus cpu = new CpuStatus(selected.source().kind().id(), selected.cgroupPath(),
                selected.effectiveCpus().count(), selected.effectiveCpus().origin(),
                Double.isNaN(latest) ? null : latest, avg.isPresent() ? avg.getAsDouble() : null,
                options.getThreshold(), selected.fallbackReason());
        TriggerStatus trigger = new TriggerStatus(options.isEnabled(), options.getCooldown(),
                policy.cooldownUntil().orElse(null), policy.cooldownRemaining().orElse(null));
        SessionInfo session = policy.activeSession().map(s -> SessionInfo.of(s, clock)).orElse(null);
        return new CpuProfilerStatus(policy.state(), cpu, trigger, session);
    }

    public CpuProfilerOptions options() {
        return options.copy();
    }

    public SelectedCpuSource cpuSource() {
        return selected;
    }

    public CpuSampler sampler() {
        return sampler;
    }

    public RollingBaseline baseline() {
        return baseline;
    }

    public CpuTriggerPolicy policy() {
        return policy;
    }

    public Clock clock() {
        return clock;
    }

    public ThreadFactory threadFactory() {
        return threadFactory;
    }

    /** Cancels a running session and stops every thread the profiler started. */
    @Override
    public void close() {
        ScheduledExecutorService e;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            e = policyExecutor;
            policyExecutor = null;
        }
        if (e != null) {
            e.shutdownNow();
        }
        policy.cancelActive("the profiler is shutting down");
        sampler.close();
        if (e != null) {
            try {
                e.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
        log.debug("CPU profiler stopped");
    }

    /** Wiring with production defaults; tests replace the clock, ticker, filesystem root and threads. */
    public static final class Builder {

        private final CpuProfilerOptions options;
        private Path fsRoot = Path.of("/");
        private Clock clock = Clock.systemUTC();
        private Ticker ticker = Ticker.system();
        private ThreadFactory threadFactory = Thread::new;
        private DebugNonSafepointsCheck debugNonSafepoints = new DebugNonSafepointsCheck();
        private Function<CpuProfiler, SessionLauncher> sessionLauncher = p -> (trigger, duration) -> {
            throw new UnsupportedOperationException("no profiling engine configured");
        };

        private Builder(CpuProfilerOptions options) {
            this.options = Objects.requireNonNull(options, "options");
        }

        /** Where {@code proc/} and {@code sys/fs/cgroup/} are found; {@code /} in production. */
        public Builder fsRoot(Path fsRoot) {
            this.fsRoot = Objects.requireNonNull(fsRoot);
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock);
            return this;
        }

        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker);
            return this;
        }

        /** Makes every thread the profiler starts; they are named {@code cpuprofiler-*} and made daemons. */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory);
            return this;
        }

        public Builder debugNonSafepointsCheck(DebugNonSafepointsCheck check) {
            this.debugNonSafepoints = Objects.requireNonNull(check);
            return this;
        }

        /** How sessions are started, given the profiler being built. */
        public Builder sessionLauncher(Function<CpuProfiler, SessionLauncher> sessionLauncher) {
            this.sessionLauncher = Objects.requireNonNull(sessionLauncher);
            return this;
        }

        public CpuProfiler build() {
            return new CpuProfiler(this);
        }
    }
}
