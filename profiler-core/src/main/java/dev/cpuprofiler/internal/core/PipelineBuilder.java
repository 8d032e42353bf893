package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.InvalidOptionException;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.internal.baseline.RollingBaseline;
import dev.cpuprofiler.internal.cpu.CpuSampler;
import dev.cpuprofiler.internal.cpu.CpuSourceSelector;
import dev.cpuprofiler.internal.cpu.OwnCpu;
import dev.cpuprofiler.internal.cpu.ProcessCpuSource;
import dev.cpuprofiler.internal.cpu.RecentCpuSamples;
import dev.cpuprofiler.internal.cpu.Ticker;
import dev.cpuprofiler.internal.engine.DebugNonSafepointsCheck;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.EngineLock;
import dev.cpuprofiler.internal.engine.EngineSelector;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import dev.cpuprofiler.internal.engine.JfrSetup;
import dev.cpuprofiler.internal.engine.OwnerOnlyDirectory;
import dev.cpuprofiler.internal.engine.ProfilingEngine;
import dev.cpuprofiler.internal.engine.WorkDirectory;
import dev.cpuprofiler.internal.lookback.Lookback;
import dev.cpuprofiler.internal.lookback.LookbackRecorder;
import dev.cpuprofiler.internal.lookback.LookbackSource;
import dev.cpuprofiler.internal.lookback.LookbackSourceChoice;
import dev.cpuprofiler.internal.requests.EndpointLatencies;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import dev.cpuprofiler.internal.session.ProfileFileWriter;
import dev.cpuprofiler.internal.session.ProfileStore;
import dev.cpuprofiler.internal.session.ProfilingSessions;
import dev.cpuprofiler.internal.threads.ConcurrencySampler;
import dev.cpuprofiler.internal.threads.CpuBreakdownProbe;
import dev.cpuprofiler.internal.threads.ManagementThreadCpuReader;
import dev.cpuprofiler.internal.threads.SaturationReading;
import dev.cpuprofiler.internal.threads.ThreadCpuReader;
import dev.cpuprofiler.internal.threads.ThreadCpuTracker;
import dev.cpuprofiler.internal.trigger.Holds;
import dev.cpuprofiler.internal.requests.LatencyRule;
import dev.cpuprofiler.internal.trigger.SessionCoordinator;
import dev.cpuprofiler.internal.trigger.TriggerPoller;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a profiler is built from: its options, and production defaults for the rest that tests replace with their
 * fakes (clock, ticker, filesystem root, threads, engines, look-back source, per-thread CPU reader) through these same
 * methods, so that they exercise the wiring production runs. {@link #build()} assembles the pipeline and hands it to
 * the {@link DefaultCpuProfiler} that runs it.
 */
public final class PipelineBuilder {

    private static final Logger log = LoggerFactory.getLogger(PipelineBuilder.class);
    /** The granularity of the latency trigger's window. */
    static final Duration LATENCY_SLOT = Duration.ofSeconds(5);

    private final CpuProfilerOptions options;
    private Path fsRoot = Path.of("/");
    private Clock clock = Clock.systemUTC();
    private Ticker ticker = Ticker.system();
    private ThreadFactory threadFactory = Thread::new;
    private DebugNonSafepointsCheck debugNonSafepoints = new DebugNonSafepointsCheck();
    private List<ProfilingEngine> engines;
    private JfrSetup jfrSetup = new JfrSetup();
    private ProfileStore profileStore;
    private Path workDirectory;
    private ThreadCpuReader threadCpuReader;
    private LongSupplier compilationMillis;
    private LookbackSource lookbackSource;
    private DiskSpaceGuard diskSpace;
    private boolean virtualThreads;

    PipelineBuilder(CpuProfilerOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /** Where {@code proc/} and {@code sys/fs/cgroup/} are found; {@code /} in production. */
    public PipelineBuilder fsRoot(Path fsRoot) {
        this.fsRoot = Objects.requireNonNull(fsRoot);
        return this;
    }

    public PipelineBuilder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock);
        return this;
    }

    public PipelineBuilder ticker(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker);
        return this;
    }

    /** Makes every thread the profiler starts; they are named {@code cpuprofiler-*} and made daemons. */
    public PipelineBuilder threadFactory(ThreadFactory threadFactory) {
        this.threadFactory = Objects.requireNonNull(threadFactory);
        return this;
    }

    /** The engines {@code auto} tries, in order (default: jfr-cpu-time, async-profiler, jfr-execution). */
    public PipelineBuilder engines(List<ProfilingEngine> engines) {
        this.engines = List.copyOf(engines);
        return this;
    }

    /**
     * Raises JFR's stack depth to max-stack-depth on the start thread, and before each JFR session if that has not
     * run yet (tests script it).
     */
    public PipelineBuilder jfrSetup(JfrSetup jfrSetup) {
        this.jfrSetup = Objects.requireNonNull(jfrSetup);
        return this;
    }

    /** Replaces the profile store built from the options. */
    public PipelineBuilder profileStore(ProfileStore profileStore) {
        this.profileStore = Objects.requireNonNull(profileStore);
        return this;
    }

    /** Reads per-thread CPU time (default: the platform ThreadMXBean). */
    public PipelineBuilder threadCpuReader(ThreadCpuReader threadCpuReader) {
        this.threadCpuReader = Objects.requireNonNull(threadCpuReader);
        return this;
    }

    /**
     * The JIT's cumulative compilation time in ms, counted as the profiler's own CPU while a session works (default:
     * the platform CompilationMXBean's, where it monitors that time; tests script it).
     */
    public PipelineBuilder compilationTime(LongSupplier compilationMillis) {
        this.compilationMillis = Objects.requireNonNull(compilationMillis);
        return this;
    }

    /** Where look-back's samples come from (default: a JFR execution-sample stream). */
    public PipelineBuilder lookbackSource(LookbackSource lookbackSource) {
        this.lookbackSource = Objects.requireNonNull(lookbackSource);
        return this;
    }

    /** How free space is judged where the profiler writes (default: from min-free-disk-space). */
    public PipelineBuilder diskSpaceGuard(DiskSpaceGuard diskSpace) {
        this.diskSpace = Objects.requireNonNull(diskSpace);
        return this;
    }

    /**
     * Where engines write temporary recordings: the profiler makes a private directory of its own in it (default:
     * in java.io.tmpdir) and deletes only that on close, never what else is there.
     */
    public PipelineBuilder workDirectory(Path workDirectory) {
        this.workDirectory = Objects.requireNonNull(workDirectory);
        return this;
    }

    /** Whether the application serves requests on virtual threads (see {@link CpuProfiler.Builder}). */
    public PipelineBuilder virtualThreads(boolean virtualThreads) {
        this.virtualThreads = virtualThreads;
        return this;
    }

    public DefaultCpuProfiler build() {
        return new DefaultCpuProfiler(assemble(), jfrSetup);
    }

    /**
     * The pipeline from the validated options and what this builder was given: CPU source → sampler → rolling
     * baseline → trigger → sessions, with per-thread CPU, the look-back and the engines beside them. Picks the CPU
     * source (one file read) and starts no thread. JFR's stack depth is raised later, on the profiler's start thread
     * ({@link DefaultCpuProfiler#start()}): it goes through the platform MBean server, which costs the application's
     * thread 100-200 ms where nothing made it yet.
     */
    private Pipeline assemble() {
        CpuProfilerOptions options = this.options.copy().validate();
        ThreadCpuReader threadReader = threadCpuReader != null ? threadCpuReader : new ManagementThreadCpuReader();
        // The profiler's own CPU, left out of what the trigger judges: every thread it makes is accountable (the start
        // and launch threads too, made from the pipeline's factory), and the sessions mark the JIT's work for it.
        OwnCpu ownCpu = new OwnCpu(threadReader.available() ? threadReader::cpuTimes : null,
                compilationMillis != null ? compilationMillis : OwnCpu.jvmCompilationMillis(), ticker,
                OwnCpu.JIT_SETTLE);
        ThreadFactory threads = ownCpu.accountable(threadFactory);
        DiskSpaceGuard diskSpace = this.diskSpace != null ? this.diskSpace
                : new DiskSpaceGuard(options.getMinFreeDiskSpace());

        CpuSourceSelector.Selected selected = new CpuSourceSelector(fsRoot).select(options.getSource());
        log.debug("CPU source: {} ({}), effective CPU count {} from {}", selected.source().kind().id(),
                selected.source().description(), selected.effectiveCpus().count(), selected.effectiveCpus().origin());
        // The sessions' engines and the look-back take turns on one lock: never two recordings at once. While one
        // records the sampler ticks every interval; a calm process with nothing recording only every polling
        // interval, at which the trigger checks anyway. The full rate lasts while the profiler's own work counts, so
        // that its JIT window closes within a tick of its settle.
        EngineLock engineLock = new EngineLock();
        Duration quietInterval = max(options.getSamplingInterval(), options.getPollingInterval());
        CpuSampler sampler = new CpuSampler(selected.source(), selected.effectiveCpus(), options.getSamplingInterval(),
                quietInterval, () -> engineLock.held() || ownCpu.working(), ownCpu::cpuNanos, ticker,
                named(threads, "cpuprofiler-sampler"));
        RollingBaseline baseline = RollingBaseline.of(options, selected.effectiveCpus());
        // For the status page's chart: one array write per tick.
        RecentCpuSamples recentCpu = RecentCpuSamples.covering(options.getSamplingInterval());

        ThreadCpuTracker tracker = null;
        if (threadReader.available()) {
            tracker = new ThreadCpuTracker(threadReader, options);
        } else {
            log.info("Per-thread CPU time is not available in this JVM: no thread table, no concurrency ratios");
        }

        ProfileStore profiles = profileStore != null ? profileStore
                : ProfileStore.of(options, outputWriter(options, diskSpace), diskSpace);
        WorkDirectory workDirectory = this.workDirectory != null ? WorkDirectory.in(this.workDirectory)
                : WorkDirectory.inTemp();

        // Opens its recording before the first of ours, and only on a JVM whose periodic thread would spin after it.
        JfrPeriodicTaskKeeper jfrKeeper = JfrPeriodicTaskKeeper.forThisJvm();
        // The start-up grace, the cooldown and the shutdown: kept once, for the trigger and the look-back.
        Holds holds = new Holds();
        LookbackRecorder recorder = lookbackRecorder(threads, options, diskSpace, jfrKeeper, engineLock, holds,
                tracker);
        Lookback lookback = recorder != null ? recorder : Lookback.off();
        EngineSelector engines = new EngineSelector(this.engines != null ? this.engines
                : EngineSelector.standardEngines(jfrSetup, debugNonSafepoints, jfrKeeper), engineLock);
        ThreadCpuTracker concurrencyTracker = tracker;
        // Every request's duration, by endpoint, in 5-s slots over the latency window: what the latency trigger judges.
        EndpointLatencies latencies = new EndpointLatencies(options.getLatency().getWindow(),
                max(options.getDuration(), options.getReference().getDuration()), LATENCY_SLOT,
                options.getMaxEndpoints(), ticker::nanoTime);
        RequestTimeline requests = new RequestTimeline(virtualThreads, latencies);
        ProfilingSessions sessions = new ProfilingSessions(engines, options, profiles, clock,
                named(threads, "cpuprofiler-session"), workDirectory.path(), diskSpace, start -> {
                    long[] reading = sampler.reading();
                    return () -> sampler.percentSince(reading);
                }, tracker == null ? null : () -> new ConcurrencySampler(threadReader, concurrencyTracker,
                        selected.effectiveCpus(), ticker, named(threads, "cpuprofiler-concurrency")), lookback,
                new CpuBreakdownProbe(fsRoot, ProcessCpuSource.platformProcessCpuTime(), threadReader), requests,
                saturation(tracker), options.effectiveSaturationWindow(), ownCpu);

        // A reference of normal records only while calm: not while the CPU rises (the look-back's arming rule).
        // An endpoint's requests judged against its normal, as the reference of normal in force knew it.
        LatencyRule latencyRule = new LatencyRule(options.getLatency());
        Supplier<Optional<LatencyRule.SlowEndpoint>> slow = !options.getLatency().isEnabled() ? Optional::empty
                : () -> latencyRule.slowest(latencies.window(), normalP95(profiles));
        SessionCoordinator coordinator = new SessionCoordinator(options, selected.effectiveCpus().count(),
                baseline::average, tracker == null ? null : tracker::saturation, lookback::rising, slow, holds,
                sessions, clock);
        // After each session the look-back may record again: at once, or from when the holds let it.
        coordinator.addListener((trigger, session, outcome) -> lookback.resume());
        // The trigger is checked on the sampler's tick: no thread of its own waking an idle application. A session
        // it starts is launched on a thread made for that launch.
        TriggerPoller poller = TriggerPoller.of(coordinator, options, named(threads, "cpuprofiler-policy"));
        listenToTicks(sampler, baseline, recentCpu, tracker, recorder, poller);
        return new Pipeline(options, clock, ticker, threads, selected, sampler, baseline, recentCpu, tracker,
                profiles, workDirectory, diskSpace, jfrKeeper, engines, sessions, lookback, coordinator,
                debugNonSafepoints, requests);
    }

    /**
     * The order in which every CPU sample is told, declared here alone: a listener that pulls what another was pushed
     * on this tick comes after it, so each tick's pushed sample and pulled average agree. The status chart's samples
     * take the measured CPU, as the status's CPU now does; every other stage judges the application's (the profiler's
     * own left out). The baseline takes the sample before the trigger reads its average; the thread tracker reads the
     * threads before the look-back reads the hottest one and the trigger its saturation reading; the look-back before
     * the trigger, so a rise that triggers has armed it by then. Absent stages (null: no per-thread CPU, look-back off)
     * are skipped.
     */
    private static void listenToTicks(CpuSampler sampler, RollingBaseline baseline, RecentCpuSamples recentCpu,
            ThreadCpuTracker tracker, LookbackRecorder lookback, TriggerPoller trigger) {
        sampler.addMeasuredListener(recentCpu);
        sampler.addListener(baseline);
        if (tracker != null) {
            sampler.addListener(tracker);
        }
        if (lookback != null) {
            sampler.addListener(lookback);
        }
        sampler.addListener(trigger);
    }

    /**
     * Look-back only helps CPU-triggered profiles, so it exists only when the trigger is on and it is asked for (null
     * otherwise), and records only while the CPU arms it.
     */
    private LookbackRecorder lookbackRecorder(ThreadFactory threads,
            CpuProfilerOptions options,
            DiskSpaceGuard diskSpace, JfrPeriodicTaskKeeper jfrKeeper, EngineLock engineLock, Holds holds,
            ThreadCpuTracker tracker) {
        if (!options.isEnabled() || options.getLookback().isZero()) {
            return null;
        }
        LookbackSource source;
        if (lookbackSource != null) {
            source = lookbackSource;
        } else {
            // The event the sessions will record: CPU time where they use jfr-cpu-time, jdk.ExecutionSample
            // elsewhere (never next to async-profiler: SIGPROF). Decided without starting JFR.
            LookbackSourceChoice choice = LookbackSourceChoice.choose(options.getEngine(), options.getMaxStackDepth(),
                    named(threads, "cpuprofiler-lookback-stream"), diskSpace, jfrKeeper);
            log.debug("Look-back source: {}", choice.reason());
            source = choice.source();
        }
        // No thread of its own: the CPU sampler's tick arms, disarms and evicts it.
        return new LookbackRecorder(options, holds, source, engineLock, clock,
                tracker == null ? () -> Double.NaN : tracker::hottestTickPercent);
    }

    /**
     * The writer for {@code output-directory}, or null without one. An existing directory that is not this user's alone
     * fails the start: others could read the profiles, or plant and replace files in it.
     */
    private ProfileFileWriter outputWriter(CpuProfilerOptions options,
            DiskSpaceGuard diskSpace) {
        Path directory = options.getOutputDirectory();
        if (directory == null) {
            return null;
        }
        UserPrincipal user = OwnerOnlyDirectory.processUser(fsRoot).orElse(null);
        Optional<String> problem;
        try {
            problem = OwnerOnlyDirectory.problem(directory, user);
        } catch (IOException e) {
            problem = Optional.of("must be a directory whose owner and permissions can be read: " + e);
        }
        problem.ifPresent(p -> {
            throw new InvalidOptionException(CpuProfilerOptions.PREFIX + "output-directory", directory, p);
        });
        return new ProfileFileWriter(directory, options.getOutputRetention(), diskSpace, outputFiles(), user);
    }

    /** An endpoint's 95th percentile in the reference of normal in force, in ms; empty where it knows none. */
    private static Function<String, OptionalDouble> normalP95(ProfileStore profiles) {
        return endpoint -> profiles.reference().map(Profile::latency).flatMap(l -> l.endpoint(endpoint))
                .map(e -> OptionalDouble.of(e.p95Millis())).orElse(OptionalDouble.empty());
    }

    /** The hottest thread at the latest tick; never one without per-thread CPU. */
    private static Supplier<Optional<SaturationReading>> saturation(ThreadCpuTracker tracker) {
        return tracker == null ? Optional::empty : tracker::saturation;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    /**
     * Names and daemonizes the threads {@code factory} makes, so every profiler thread is recognisable in a thread
     * dump ({@code cpuprofiler-sampler}, ...) and none keeps the JVM alive.
     */
    static ThreadFactory named(ThreadFactory factory, String name) {
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(name, "name");
        return r -> {
            Thread t = factory.newThread(r);
            t.setName(name);
            t.setDaemon(true);
            return t;
        };
    }

    /**
     * The parts the builder assembled, held by the running {@link CpuProfiler}.
     *
     * @param threads per-thread CPU time, or null when this JVM cannot measure it
     * @param jfrKeeper the recording that keeps JFR's periodic thread asleep on Java 17 to 20, closed last
     */
    record Pipeline(CpuProfilerOptions options, Clock clock, Ticker ticker, ThreadFactory threadFactory,
            CpuSourceSelector.Selected cpuSource, CpuSampler sampler, RollingBaseline baseline,
            RecentCpuSamples recentCpu, ThreadCpuTracker threads, ProfileStore profiles, WorkDirectory workDirectory,
            DiskSpaceGuard diskSpace, JfrPeriodicTaskKeeper jfrKeeper, EngineSelector engines,
            ProfilingSessions sessions, Lookback lookback, SessionCoordinator coordinator,
            DebugNonSafepointsCheck debugNonSafepoints, RequestTimeline requests) {
    }

    /**
     * What {@code profiler.cpu.output-directory} gets per profile: its collapsed stacks and its flame graph, each
     * written by its format, with the look-back part (as the endpoint shows it by default); the recording is moved
     * there too.
     */
    public static List<ProfileFileWriter.File> outputFiles() {
        return List.of(file(ProfileFormat.COLLAPSED), file(ProfileFormat.HTML));
    }

    private static ProfileFileWriter.File file(ProfileFormat format) {
        return new ProfileFileWriter.File(format.extension(), (profile, out) -> format.write(profile, ProfileView.FULL, out));
    }
}
