package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.internal.core.PipelineBuilder.Pipeline;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;

import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.CpuProfilerOptions;

import dev.cpuprofiler.internal.cpu.CpuSampler;
import dev.cpuprofiler.internal.cpu.CpuSourceSelector;
import dev.cpuprofiler.internal.engine.JfrSetup;
import dev.cpuprofiler.internal.lookback.ArmingLevel;
import dev.cpuprofiler.internal.lookback.Lookback;
import dev.cpuprofiler.internal.session.ProfileStore;
import dev.cpuprofiler.internal.session.ProfilingSessions;
import dev.cpuprofiler.RequestActivity;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.internal.threads.ThreadCpuTracker;
import dev.cpuprofiler.SessionEndListener;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running profiler: the pipeline {@link PipelineBuilder} built from {@link CpuProfilerOptions} (CPU source →
 * sampler → rolling baseline → trigger → profiling sessions). Building it starts no thread. {@link #start()} returns at
 * once: a short-lived thread of the profiler's ({@code cpuprofiler-start}) does the slow part, raising JFR's stack
 * depth, then starts the look-back and the sampler, whose tick checks the trigger, then initialises JFR where that must
 * happen early. No engine loads before its first recording. {@link #close()} stops everything, that thread included.
 */
public final class DefaultCpuProfiler implements CpuProfiler {

    private static final Logger log = LoggerFactory.getLogger(CpuProfiler.class);

    /** How long {@link #close()} waits for a start thread still getting ready; it starts nothing after close. */
    static final Duration START_WAIT = Duration.ofSeconds(2);

    private final Pipeline p;
    private final JfrSetup jfrSetup;
    private final StatusReader status;
    // Guarded by this: the start thread checks closed under it before it starts the look-back and the sampler.
    private boolean started;
    private boolean closed;
    private Thread starter;

    DefaultCpuProfiler(Pipeline pipeline, JfrSetup jfrSetup) {
        this.p = pipeline;
        this.jfrSetup = jfrSetup;
        this.status = new StatusReader(pipeline);
    }

    /** A builder that also takes the parts tests replace (engines, store, readers, look-back source). */
    public static PipelineBuilder builder(CpuProfilerOptions options) {
        return new PipelineBuilder(options);
    }

    /**
     * Starts sampling and the trigger checks, and returns at once: the start-up grace counts from this call, and the
     * start thread ({@code cpuprofiler-start}) starts the look-back and the sampler once it has got ready (see
     * {@link #startMonitoring()}). Idempotent.
     */
    @Override
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (started) {
            return;
        }
        started = true;
        // The start-up grace first: the look-back reads it as it starts.
        p.coordinator().monitoringStarted();
        starter = PipelineBuilder.named(p.threadFactory(), "cpuprofiler-start").newThread(this::startMonitoring);
        starter.start();
    }

    /**
     * The start thread's work, off the application's thread (which {@code start()} is called on at its start-up):
     * the slow steps, then the look-back and the sampler, in that order, unless {@link #close()} came first. A step
     * that fails is logged once and monitoring starts all the same.
     */
    private void startMonitoring() {
        CpuProfilerOptions options = p.options();
        // Before the look-back touches JFR (it records only from a sampler tick, or at its start when always armed):
        // JFR's stack depth can only be raised until JFR starts. A session asked for before this ran is safe too: the
        // JFR engines raise it themselves before they start JFR.
        getReady("raise JFR's stack depth", () -> jfrSetup.ensure(options.getMaxStackDepth()));
        getReady("check -XX:+DebugNonSafepoints", () -> p.debugNonSafepoints().warning().ifPresent(warning -> {
            if (p.engines().mayTurnOnDebugNonSafepoints(options.getEngine())) {
                log.info("{} Until then async-profiler turns it on when it first records, for the code compiled "
                        + "from then on.", warning);
            } else {
                log.warn("{}", warning);
            }
        }));
        synchronized (this) {
            if (closed) {
                return;
            }
            try {
                p.lookback().start();
                p.sampler().start();
            } catch (RuntimeException | Error e) {
                log.warn("CPU profiler failed to start monitoring: no CPU trigger, no look-back", e);
                return;
            }
            logStarted(options);
        }
        // Last, not to delay the trigger: what records with JFR by itself (the look-back; the triggers' sessions,
        // unless async-profiler is the only engine they may use: auto falls back to JFR, and prefers it on virtual
        // threads) would otherwise initialise it on a busy application.
        if (options.isEnabled() && (p.lookback() != Lookback.off()
                || options.getEngine() != EngineChoice.ASYNC_PROFILER)) {
            getReady("initialise JFR", () -> {
                if (jfrSetup.initializeWhileCold()) {
                    p.jfrKeeper().beforeRecording(); // initialised, JFR's periodic thread spins before Java 21
                }
            });
        }
    }

    /** One step of getting ready; a failure is logged (WARN) and costs only what the step was for. */
    private static void getReady(String step, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | Error e) {
            log.warn("CPU profiler could not {} at start; it monitors all the same", step, e);
        }
    }

    private void logStarted(CpuProfilerOptions options) {
        log.info("CPU profiler started: source {}, {} effective CPUs, threshold {}%, trigger {}, look-back {}, "
                + "reference of normal {}", p.cpuSource().source().kind().id(), p.cpuSource().effectiveCpus().count(),
                options.getThreshold(), !options.isEnabled() ? "off"
                        : "on after a start-up grace of " + options.getStartupGrace(),
                options.getLookback().isZero() || !options.isEnabled() ? "off" : options.getLookback() + " at "
                        + options.getLookbackSamplingPeriod().toMillis() + " ms, armed above "
                        + new ArmingLevel(options).floorPercent() + "% CPU",
                !options.getReference().isEnabled() ? "off" : options.getReference().getDuration() + " every "
                        + options.getReference().getRefresh() + " while calm");
    }

    /** Starts an on-demand profile. */
    @Override
    public RunningSession startOnDemand(Duration duration) {
        // The engine starts on a thread of the profiler's: the caller may be a virtual thread (a request's).
        return p.coordinator().startOnDemand(duration,
                launch -> PipelineBuilder.named(p.threadFactory(), "cpuprofiler-launch").newThread(launch).start());
    }

    @Override
    public RequestActivity requestActivity() {
        return p.requests().reporter();
    }

    @Override
    public void addSessionEndListener(SessionEndListener listener) {
        p.coordinator().addListener(listener);
    }

    /**
     * Tells the listener of every profile stored from now on, on the session's thread: it must not block (an
     * exporter queues the profile for a thread of its own).
     */
    @Override
    public void addStoredProfileListener(Consumer<Profile> listener) {
        p.profiles().addListener(listener);
    }

    /** Stops telling the listener. */
    @Override
    public void removeStoredProfileListener(Consumer<Profile> listener) {
        p.profiles().removeListener(listener);
    }

    @Override
    public CpuProfilerStatus status() {
        return status.read();
    }

    /** The recorded profiles' store. */
    public ProfileStore store() {
        return p.profiles();
    }

    @Override
    public List<Profile> profiles() {
        return p.profiles().list();
    }

    @Override
    public Optional<Profile> profile(String id) {
        return p.profiles().get(id);
    }

    @Override
    public CpuProfilerOptions options() {
        return p.options().copy();
    }

    public CpuSourceSelector.Selected cpuSource() {
        return p.cpuSource();
    }

    public CpuSampler sampler() {
        return p.sampler();
    }

    /** The rolling record of recent stack samples ({@link Lookback#off()} when switched off). */
    public Lookback lookback() {
        return p.lookback();
    }

    /** Per-thread CPU time, or null when this JVM cannot measure it. */
    public ThreadCpuTracker threads() {
        return p.threads();
    }

    /** The session recording now, if any; empty while one is still being launched. Never waits. */
    @Override
    public Optional<RunningSession> activeSession() {
        return p.coordinator().activeSession();
    }

    /** Ends the session recording now, if any, with this reason; later sessions start as usual. */
    @Override
    public void cancelActive(String reason) {
        p.coordinator().cancelActive(reason);
    }

    @Override
    public Optional<RunningSession> stopForShutdown() {
        return p.coordinator().shutDown("the profiler is shutting down");
    }

    /**
     * Stops a running session early, keeping its profile (waiting {@link ProfilingSessions#CLOSE_WAIT} at most), and
     * stops every thread the profiler started; a start thread still getting ready starts nothing more and is waited
     * for ({@link #START_WAIT} at most).
     */
    @Override
    public void close() {
        Thread starting;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            starting = starter;
        }
        // Waits for a launch under way (on its own thread) and stops its session; later polls do nothing.
        stopForShutdown();
        p.sessions().close();
        p.lookback().close();
        p.jfrKeeper().close();  // after every recording of ours has ended
        p.sampler().close();
        p.profiles().close();  // the recordings it kept for format=jfr; the profiles stay readable
        p.workDirectory().close();
        awaitStarter(starting);
        log.debug("CPU profiler stopped");
    }

    /** A start thread still getting ready starts nothing now: waited for, so that it does not outlive the profiler. */
    private static void awaitStarter(Thread starting) {
        if (starting == null || starting == Thread.currentThread()) {
            return;
        }
        try {
            starting.join(START_WAIT.toMillis());
            if (starting.isAlive()) {
                log.warn("CPU profiler start thread still getting ready after {}: it ends by itself and starts nothing",
                        START_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** profiler-core's {@link CpuProfiler.Provider}: the pipeline, with production defaults for the rest. */
    public static final class Provider implements CpuProfiler.Provider {

        @Override
        public CpuProfiler build(CpuProfiler.Builder settings) {
            PipelineBuilder b = builder(settings.options()).fsRoot(settings.fsRoot()).clock(settings.clock())
                    .threadFactory(settings.threadFactory()).virtualThreads(settings.virtualThreads());
            if (settings.workDirectory() != null) {
                b.workDirectory(settings.workDirectory());
            }
            return b.build();
        }
    }
}
