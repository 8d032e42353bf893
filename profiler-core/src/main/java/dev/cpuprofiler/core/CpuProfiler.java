package dev.cpuprofiler.core;

import dev.cpuprofiler.baseline.RollingBaseline;
import dev.cpuprofiler.cpu.CpuSampler;
import dev.cpuprofiler.cpu.CpuSourceSelector;
import dev.cpuprofiler.cpu.ProcessCpuSource;
import dev.cpuprofiler.cpu.SelectedCpuSource;
import dev.cpuprofiler.lookback.JfrExecutionSampleSource;
import dev.cpuprofiler.lookback.Lookback;
import dev.cpuprofiler.lookback.LookbackRecorder;
import dev.cpuprofiler.lookback.LookbackSettings;
import dev.cpuprofiler.lookback.LookbackSource;
import dev.cpuprofiler.session.engine.DebugNonSafepointsCheck;
import dev.cpuprofiler.session.engine.DiskSpaceGuard;
import dev.cpuprofiler.session.Profile;
import dev.cpuprofiler.session.ProfileFileWriter;
import dev.cpuprofiler.session.ProfileStore;
import dev.cpuprofiler.session.ProfilingSessions;
import dev.cpuprofiler.session.RunningSession;
import dev.cpuprofiler.session.SessionLauncher;
import dev.cpuprofiler.session.SessionSettings;
import dev.cpuprofiler.session.engine.EngineLock;
import dev.cpuprofiler.session.engine.EngineSelector;
import dev.cpuprofiler.session.engine.JfrStackDepth;
import dev.cpuprofiler.session.engine.ProfilingEngine;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import dev.cpuprofiler.threads.ConcurrencySampler;
import dev.cpuprofiler.threads.CpuBreakdownProbe;
import dev.cpuprofiler.threads.ManagementThreadCpuReader;
import dev.cpuprofiler.threads.ThreadCpuReader;
import dev.cpuprofiler.threads.ThreadCpuTracker;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole pipeline wired from {@link CpuProfilerOptions}: CPU source → sampler → rolling baseline →
 * trigger policy → profiling sessions. Construction picks the CPU source (one file read) and starts no
 * thread; {@link #start()} starts the sampler and policy threads; {@link #close()} stops everything.
 */
public final class CpuProfiler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(CpuProfiler.class);
    private static final int TOP_THREADS = 10;

    private final CpuProfilerOptions options;
    private final Clock clock;
    private final ThreadFactory threadFactory;
    private final SelectedCpuSource selected;
    private final CpuSampler sampler;
    private final RollingBaseline baseline;
    private final CpuTriggerPolicy policy;
    private final DebugNonSafepointsCheck debugNonSafepoints;
    private final ProfileStore profiles;
    private final ThreadCpuTracker threadTracker;
    private final ProfilingSessions sessions;
    private final Lookback lookback;
    private final EngineSelector engineSelector;
    private final Path workDirectory;
    private final DiskSpaceGuard diskSpace;
    private ScheduledExecutorService policyExecutor;
    private boolean closed;

    private CpuProfiler(Builder b) {
        this.options = b.options.copy().validate();
        this.clock = b.clock;
        this.threadFactory = b.threadFactory;
        this.debugNonSafepoints = b.debugNonSafepoints;
        this.diskSpace = b.diskSpace != null ? b.diskSpace : new DiskSpaceGuard(options.getMinFreeDiskSpace());
        this.selected = new CpuSourceSelector(b.fsRoot).select(options.getSource());
        log.debug("CPU source: {} ({}), effective CPU count {} from {}", selected.source().kind().id(),
                selected.source().description(), selected.effectiveCpus().count(), selected.effectiveCpus().origin());
        this.sampler = new CpuSampler(selected.source(), selected.effectiveCpus(), options.getSamplingInterval(),
                b.ticker, new NamedThreadFactory(threadFactory, "cpuprofiler-sampler"));
        this.baseline = new RollingBaseline(options.getRollingHistorySize(), options.getRollingHistoryInterval(),
                options.getAverageWindow(), options.getSamplingInterval(), selected.effectiveCpus());
        sampler.addListener(baseline);
        ThreadCpuReader threadReader = b.threadCpuReader != null ? b.threadCpuReader : new ManagementThreadCpuReader();
        if (threadReader.available()) {
            this.threadTracker = new ThreadCpuTracker(threadReader);
            sampler.addListener(threadTracker);
        } else {
            this.threadTracker = null;
            log.info("Per-thread CPU time is not available in this JVM: no thread table, no concurrency ratios");
        }
        this.profiles = b.profileStore != null ? b.profileStore : new ProfileStore(options.getRetainedProfiles(),
                options.getRetainedBytes(), options.getOutputDirectory() == null ? null
                        : new ProfileFileWriter(options.getOutputDirectory(), options.getOutputRetention(), diskSpace));
        SessionLauncher launcher;
        if (b.sessionLauncher != null) {
            this.workDirectory = null;
            this.sessions = null;
            this.engineSelector = null;
            this.lookback = Lookback.off();
            launcher = b.sessionLauncher;
        } else {
            this.workDirectory = b.workDirectory != null ? b.workDirectory : createWorkDirectory();
            // Before look-back or any session touches JFR: its stack depth can only be raised until JFR starts.
            b.jfrStackDepth.ensure(options.getMaxStackDepth());
            SessionSettings sessionSettings = SessionSettings.from(options);
            // The sessions' engines and the look-back take turns on one lock: never two recordings at once.
            EngineLock engineLock = new EngineLock();
            this.lookback = lookbackFor(b, sessionSettings, engineLock);
            this.engineSelector = new EngineSelector(b.engines != null ? b.engines
                    : EngineSelector.standardEngines(b.jfrStackDepth, b.debugNonSafepoints), engineLock);
            this.sessions = new ProfilingSessions(engineSelector,
                    sessionSettings, profiles, clock,
                    new NamedThreadFactory(threadFactory, "cpuprofiler-session"), workDirectory, diskSpace, start -> {
                        long[] reading = sampler.reading();
                        return () -> sampler.percentSince(reading);
                    }, threadTracker == null ? null : () -> new ConcurrencySampler(threadReader, threadTracker,
                            selected.effectiveCpus(), b.ticker,
                            new NamedThreadFactory(threadFactory, "cpuprofiler-concurrency")), lookback,
                    new CpuBreakdownProbe(b.fsRoot, ProcessCpuSource.platformProcessCpuTime(), threadReader));
            launcher = sessions;
        }
        this.policy = new CpuTriggerPolicy(TriggerSettings.from(options), baseline::average, launcher, clock);
        // After a session the look-back records again, but only from one window before the cooldown ends: the
        // window is full when the trigger can fire again, and nothing is sampled for hours in between.
        policy.addListener((trigger, session, outcome) -> lookback.resumeAt(
                policy.cooldownUntil().map(until -> until.minus(options.getLookback())).orElse(clock.instant())));
    }

    /** Look-back only helps CPU-triggered profiles, so it records only when the trigger is on and it is asked for. */
    private Lookback lookbackFor(Builder b, SessionSettings sessionSettings, EngineLock engineLock) {
        if (!options.isEnabled() || options.getLookback().isZero()) {
            return Lookback.off();
        }
        LookbackSettings settings = LookbackSettings.forSessions(options.getLookback(),
                options.getLookbackSamplingPeriod(), sessionSettings);
        LookbackSource source = b.lookbackSource != null ? b.lookbackSource
                : new JfrExecutionSampleSource(settings.maxStackDepth(),
                        new NamedThreadFactory(threadFactory, "cpuprofiler-lookback-stream"), diskSpace);
        return new LookbackRecorder(settings, source, engineLock, clock,
                new NamedThreadFactory(threadFactory, "cpuprofiler-lookback"));
    }

    /**
     * A private temp directory for engine recordings, removed on close. A temp directory that cannot be written (full,
     * read-only) must not stop the application from starting: then a name is chosen and the engines create it when
     * they first record, or say why they cannot.
     */
    private static Path createWorkDirectory() {
        try {
            return Files.createTempDirectory("cpuprofiler-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (UnsupportedOperationException e) {
            try {
                return Files.createTempDirectory("cpuprofiler-");
            } catch (IOException | RuntimeException io) {
                return unwritableWorkDirectory(io);
            }
        } catch (IOException | RuntimeException e) {
            return unwritableWorkDirectory(e);
        }
    }

    private static Path unwritableWorkDirectory(Exception e) {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "cpuprofiler-" + ProcessHandle.current().pid() + "-"
                + Long.toUnsignedString(new SecureRandom().nextLong(), 36));
        log.warn("Cannot create the profiler's work directory under {} ({}); profiles need it and will say why they "
                + "cannot record until it can be created", System.getProperty("java.io.tmpdir"), e.toString());
        return dir;
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    log.debug("Cannot delete {}: {}", p, e.toString());
                }
            });
        } catch (IOException e) {
            log.debug("Cannot clean up {}: {}", dir, e.toString());
        }
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
        if (engineSelector != null) {
            // Early, so the code the JIT compiles from now on can be attributed exactly (inlined methods).
            engineSelector.prepare(options.getEngine());
        }
        debugNonSafepoints.warning().ifPresent(log::warn);
        sampler.start();
        lookback.start();
        policyExecutor = Executors.newSingleThreadScheduledExecutor(
                new NamedThreadFactory(threadFactory, "cpuprofiler-policy"));
        long poll = options.getPollingInterval().toNanos();
        policyExecutor.scheduleWithFixedDelay(policy::poll, poll, poll, TimeUnit.NANOSECONDS);
        log.info("CPU profiler started: source {}, {} effective CPUs, threshold {}%, trigger {}, look-back {}",
                selected.source().kind().id(), selected.effectiveCpus().count(), options.getThreshold(),
                options.isEnabled() ? "on" : "off", options.getLookback().isZero() || !options.isEnabled() ? "off"
                        : options.getLookback() + " at " + options.getLookbackSamplingPeriod().toMillis() + " ms");
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
        return new CpuProfilerStatus(policy.state(), cpu, trigger, session, profiles.latest().orElse(null),
                threadTracker == null ? List.of() : threadTracker.top(TOP_THREADS), lookback.status(), diskStatus());
    }

    /** The free space where the profiler writes: a few statvfs calls, cheap enough for every status request. */
    private DiskStatus diskStatus() {
        List<DiskStatus.Place> places = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        if (engineSelector != null) {
            addPlace(places, problems, "jfr-repository", diskSpace.jfrRepository(), "JFR's repository");
            addPlace(places, problems, "work-directory", workDirectory, "the profiler's work directory");
        }
        if (options.getOutputDirectory() != null) {
            addPlace(places, problems, "output-directory", options.getOutputDirectory(),
                    "profiler.cpu.output-directory");
        }
        return new DiskStatus(places, problems.isEmpty() ? null : problems.get(0));
    }

    private void addPlace(List<DiskStatus.Place> places, List<String> problems, String role, Path path, String what) {
        diskSpace.check(path).ifPresent(c -> {
            places.add(new DiskStatus.Place(role, path.toString(), c.usableBytes(), c.floorBytes(), c.writable()));
            if (!c.ok()) {
                problems.add(c.describe(what));
            }
        });
    }

    /** The recorded profiles. */
    public ProfileStore profiles() {
        return profiles;
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

    /** The rolling record of recent stack samples ({@link Lookback#off()} when switched off). */
    public Lookback lookback() {
        return lookback;
    }

    /** Per-thread CPU time, or null when this JVM cannot measure it. */
    public ThreadCpuTracker threads() {
        return threadTracker;
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
        policy.shutDown("the profiler is shutting down");
        if (sessions != null) {
            sessions.close();
        }
        lookback.close();
        sampler.close();
        if (workDirectory != null) {
            deleteRecursively(workDirectory);
        }
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
        private SessionLauncher sessionLauncher;
        private List<ProfilingEngine> engines;
        private JfrStackDepth jfrStackDepth = new JfrStackDepth();
        private ProfileStore profileStore;
        private Path workDirectory;
        private ThreadCpuReader threadCpuReader;
        private LookbackSource lookbackSource;
        private DiskSpaceGuard diskSpace;

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

        /** Replaces how sessions start (tests); by default engines record into the profile store. */
        public Builder sessionLauncher(SessionLauncher sessionLauncher) {
            this.sessionLauncher = Objects.requireNonNull(sessionLauncher);
            return this;
        }

        /** The engines {@code auto} tries, in order (default: jfr-cpu-time, async-profiler, jfr-execution). */
        public Builder engines(List<ProfilingEngine> engines) {
            this.engines = List.copyOf(engines);
            return this;
        }

        /** Raises JFR's stack depth to max-stack-depth when the profiler is built (tests script it). */
        public Builder jfrStackDepth(JfrStackDepth jfrStackDepth) {
            this.jfrStackDepth = Objects.requireNonNull(jfrStackDepth);
            return this;
        }

        /** Replaces the profile store built from the options. */
        public Builder profileStore(ProfileStore profileStore) {
            this.profileStore = Objects.requireNonNull(profileStore);
            return this;
        }

        /** Reads per-thread CPU time (default: the platform ThreadMXBean). */
        public Builder threadCpuReader(ThreadCpuReader threadCpuReader) {
            this.threadCpuReader = Objects.requireNonNull(threadCpuReader);
            return this;
        }

        /** Where look-back's samples come from (default: a JFR execution-sample stream). */
        public Builder lookbackSource(LookbackSource lookbackSource) {
            this.lookbackSource = Objects.requireNonNull(lookbackSource);
            return this;
        }

        /** How free space is judged where the profiler writes (default: from min-free-disk-space). */
        public Builder diskSpaceGuard(DiskSpaceGuard diskSpace) {
            this.diskSpace = Objects.requireNonNull(diskSpace);
            return this;
        }

        /** Where engines write temporary recordings (default: a new private temp directory). */
        public Builder workDirectory(Path workDirectory) {
            this.workDirectory = Objects.requireNonNull(workDirectory);
            return this;
        }

        public CpuProfiler build() {
            return new CpuProfiler(this);
        }
    }
}
