package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionStartException;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.cpu.OwnCpu;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.EngineSelector;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import dev.cpuprofiler.internal.engine.JfrWaitRecording;
import dev.cpuprofiler.internal.engine.SelectedRecording;
import dev.cpuprofiler.internal.lookback.Lookback;
import dev.cpuprofiler.internal.lookback.LookbackHandOver;
import dev.cpuprofiler.internal.requests.EndpointTally;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.threads.ConcurrencySampler;
import dev.cpuprofiler.internal.threads.CpuBreakdownProbe;
import dev.cpuprofiler.internal.threads.SaturationReading;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts sessions: picks an engine (with fallbacks), records into a fresh {@link StackTree} on a thread of
 * its own, and stores the profile when done, compared with the reference of normal in force when it started (none for
 * a reference itself, none without references).
 */
public final class ProfilingSessions implements SessionLauncher, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProfilingSessions.class);

    private final EngineSelector selector;
    private final CpuProfilerOptions options;
    private final ProfileStore store;
    private final Clock clock;
    private final ThreadFactory threadFactory;
    private final Path workDirectory;
    private final DiskSpaceGuard diskSpace;
    private final Function<Instant, Supplier<Double>> cpuMeter;
    private final Supplier<ConcurrencySampler> concurrencySamplers;
    private final Lookback lookback;
    private final CpuBreakdownProbe breakdown;
    private final RequestTimeline requests;
    private final Supplier<Optional<SaturationReading>> saturation;
    private final Duration saturationWindow;
    private final OwnCpu ownCpu;
    private final ProfileIds ids = ProfileIds.random();
    private volatile ProfilingSession current;
    // A shorter gap between look-back and session is not worth a note: a few samples at most.
    static final Duration NOTED_GAP = Duration.ofMillis(100);
    /** The longest {@link #close()} waits for the running session to store its profile. */
    public static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /**
     * @param options the profiler's settings: the engine, its sampling, the trees' limits (a validated copy)
     * @param workDirectory where engines put their temporary recordings
     * @param diskSpace the free space engines keep where they write
     * @param cpuMeter given a session's start, a supplier of the average CPU% since then (null if unknown)
     * @param concurrencySamplers a new concurrency sampler per session, or null when thread CPU time is unreadable
     * @param lookback asked to step aside (and hand over its samples) before each session's engine starts; whoever
     *        learns that the session ended resumes it ({@link Lookback#off()} when look-back is off)
     * @param breakdown measures where the CPU went during each session, or null for no breakdown
     * @param requests what requests report while a session records, joined with its samples
     * @param saturation the thread a SATURATION session is about, at its launch ({@code ThreadCpuTracker#saturation})
     * @param saturationWindow the span the saturation trigger averages over, for the profile
     * @param ownCpu told when each session's work begins (its launch) and ends (its profile stored, or no session):
     *        the JIT's work meanwhile is the profiler's, not the application's
     */
    public ProfilingSessions(EngineSelector selector, CpuProfilerOptions options, ProfileStore store, Clock clock,
            ThreadFactory threadFactory, Path workDirectory, DiskSpaceGuard diskSpace,
            Function<Instant, Supplier<Double>> cpuMeter, Supplier<ConcurrencySampler> concurrencySamplers,
            Lookback lookback, CpuBreakdownProbe breakdown, RequestTimeline requests,
            Supplier<Optional<SaturationReading>> saturation, Duration saturationWindow, OwnCpu ownCpu) {
        this.selector = Objects.requireNonNull(selector, "selector");
        this.options = Objects.requireNonNull(options, "options");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
        this.diskSpace = Objects.requireNonNull(diskSpace, "diskSpace");
        this.cpuMeter = Objects.requireNonNull(cpuMeter, "cpuMeter");
        this.concurrencySamplers = concurrencySamplers;
        this.lookback = Objects.requireNonNull(lookback, "lookback");
        this.breakdown = breakdown;
        this.requests = Objects.requireNonNull(requests, "requests");
        this.saturation = Objects.requireNonNull(saturation, "saturation");
        this.saturationWindow = Objects.requireNonNull(saturationWindow, "saturationWindow");
        this.ownCpu = Objects.requireNonNull(ownCpu, "ownCpu");
    }

    /**
     * The profiler's own work lasts from here until the session's thread has stored its profile (or the launch
     * failed): starting an engine and parsing its recording make the JIT compile the profiler's code.
     */
    @Override
    public RunningSession launch(SessionTrigger trigger, Duration duration) {
        ownCpu.beginWork();
        boolean launched = false;
        try {
            RunningSession session = launchSession(trigger, duration);
            launched = true;
            return session;
        } finally {
            if (!launched) {
                ownCpu.endWork();
            }
        }
    }

    /** Starts the engine and the session's thread, which ends the profiler's work once the session is over. */
    private RunningSession launchSession(SessionTrigger trigger, Duration duration) {
        // One engine at a time: the look-back stops sampling and lets go of the engine lock first, without waiting
        // for its last samples, so the session's engine starts right away. Its samples belong to profiles the CPU
        // trigger started (the burst that raised the average); an on-demand profile covers what was asked for.
        Optional<LookbackHandOver> handOver = lookback.handOver();
        Instant now = clock.instant();
        String id = ids.next(trigger, now);
        int depth = options.getMaxStackDepth();
        int nodes = options.getMaxTreeNodes();
        StackTree tree = new StackTree(depth, nodes, options.isGroupByThread());
        EndpointTally endpoints = new EndpointTally(tree, depth, nodes);
        ThreadFocus focus = trigger == SessionTrigger.SATURATION ? saturation.get().map(pinned -> new ThreadFocus(
                endpoints, pinned, saturationWindow, depth, nodes)).orElse(null) : null;
        SelectedRecording recording;
        // Before the engine: a request that begins while it starts is known by the time its samples come.
        requests.start();
        try {
            recording = selector.start(options.getEngine(),
                    new EngineSettings(options.getStackSamplingPeriod(), depth, workDirectory, id,
                            diskSpace, options.getJfr().isIncludeSystemInfo()), focus != null ? focus : endpoints,
                    requests.virtualThreads());
        } catch (EngineUnavailableException | RuntimeException e) {
            requests.close();
            throw e instanceof EngineUnavailableException ? new SessionStartException(e.getMessage(), e)
                    : (RuntimeException) e;
        }
        // A reference of normal is compared by its endpoints and methods only: without the concurrency sampler (a
        // thread reading every thread's CPU time every 10 ms) and the CPU breakdown, it costs an idle application
        // much less (README, the reference of normal: what it costs).
        boolean normal = trigger == SessionTrigger.REFERENCE;
        JfrWaitRecording waits = trigger == SessionTrigger.LATENCY ? startWaits(id, depth) : null;
        ConcurrencySampler concurrency = normal ? null : startConcurrency();
        CpuBreakdownProbe.Measurement cpuBreakdown = breakdown == null || normal ? null : breakdown.start();
        // The session's clock starts once the engine records: starting one can take a while (loading
        // async-profiler's native library, JFR's first recording), and that time holds no samples.
        Instant started = clock.instant();
        requests.recording();
        // The reference in force when the session starts is the one it is compared with, whatever is recorded later.
        Profile reference = trigger != SessionTrigger.REFERENCE && options.getReference().isEnabled()
                ? store.reference().orElse(null) : null;
        LookbackSnapshot lookbackPart = trigger.automatic() ? handOver.map(LookbackHandOver::snapshot)
                .filter(l -> !l.isEmpty()).map(l -> withGap(l, started)).orElse(null) : null;
        handOver.filter(h -> !trigger.automatic()).ifPresent(LookbackHandOver::snapshot); // forgets them
        ProfilingSession.SessionRequests sessionRequests = new ProfilingSession.SessionRequests(requests, endpoints,
                options.getMaxEndpoints(), recording.seesVirtualThreads(), waits);
        ProfileAssembly assembly = new ProfileAssembly(id, trigger, started, duration,
                options.getStackSamplingPeriod(), tree, sessionRequests, recording.engineId(), lookbackPart, focus,
                reference, options.getLatency());
        ProfilingSession session = new ProfilingSession(id, trigger, recording, tree, started, duration, store, clock,
                cpuMeter.apply(started), concurrency, cpuBreakdown, sessionRequests, assembly);
        Thread thread;
        try {
            thread = threadFactory.newThread(() -> {
                try {
                    session.run();
                } finally {
                    ownCpu.endWork();
                }
            });
            thread.start();
        } catch (RuntimeException | Error e) {
            sessionRequests.close();
            recording.cancel();
            if (concurrency != null && concurrency.isRunning()) {
                concurrency.stop();
            }
            throw e;
        }
        current = session;
        log.debug("Session {} ({}) recording with {} for {}", id, trigger, recording.engineId(), duration);
        return session;
    }

    /** A LATENCY session's recording of waits, or null when JFR cannot record them (the profile then says so). */
    private JfrWaitRecording startWaits(String id, int depth) {
        try {
            return JfrWaitRecording.start(options.getLatency().getWaitThreshold(), workDirectory, id, depth);
        } catch (EngineUnavailableException e) {
            log.warn("Profile {} records no waits: {}", id, e.getMessage());
            return null;
        }
    }

    /**
     * Says so when the session's first sample may come noticeably later than the look-back's last: the engine took
     * that long to start (loading async-profiler's library, JFR's first recording in this JVM).
     */
    private static LookbackSnapshot withGap(LookbackSnapshot l, Instant sessionStart) {
        Duration gap = Duration.between(l.endedAt(), sessionStart);
        if (gap.compareTo(NOTED_GAP) < 0) {
            return l;
        }
        List<String> notes = new ArrayList<>(l.notes());
        notes.add("the session's engine started " + gap.toMillis() + " ms after the look-back stopped: nothing was "
                + "sampled in between");
        return new LookbackSnapshot(l.startedAt(), l.endedAt(), l.samplingPeriod(), l.weightUnit(), l.samples(),
                l.tree(), notes);
    }

    private ConcurrencySampler startConcurrency() {
        if (concurrencySamplers == null) {
            return null;
        }
        try {
            ConcurrencySampler sampler = concurrencySamplers.get();
            sampler.start();
            return sampler;
        } catch (RuntimeException e) {
            log.debug("No concurrency sampling for this session: {}", e.toString());
            return null;
        }
    }

    public ProfileStore store() {
        return store;
    }

    /**
     * Stops the running session, if any, early, keeping what it recorded, and waits at most {@link #CLOSE_WAIT} for
     * its profile to be stored and its thread to let go of the engine: an engine that hangs does not hold the
     * application's shutdown longer.
     */
    @Override
    public void close() {
        ProfilingSession s = current;
        if (s != null && !s.isDone()) {
            s.stopEarly(CpuProfiler.CUT_SHORT_BY_SHUTDOWN);
            if (!s.awaitEnd(CLOSE_WAIT)) {
                log.warn("Profiling session {} did not stop within {} s: shutting down without its profile", s.id(),
                        CLOSE_WAIT.toSeconds());
            }
        }
    }

    /**
     * Names profiles {@code <UTC second>-<trigger>-<sequence>-<instance>}, e.g.
     * {@code 20261126T043053Z-manual-1-k3f9q2ab}: they sort by time, read as what they are, and are safe in a URL and
     * a file name. The instance part, random for each profiler, keeps apart the ids (and so the files) of instances
     * that share an output directory.
     */
    static final class ProfileIds {

        private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                .withZone(ZoneOffset.UTC);
        /** 8 base-36 characters: about 41 random bits. */
        private static final int INSTANCE_CHARS = 8;

        private final String instance;
        private final AtomicLong sequence = new AtomicLong();

        ProfileIds(String instance) {
            if (!instance.matches("[0-9a-z]{1,16}")) {
                throw new IllegalArgumentException("an instance part is 1 to 16 lower-case letters and digits");
            }
            this.instance = instance;
        }

        /** With a random instance part of its own. */
        static ProfileIds random() {
            String digits = Long.toString(new SecureRandom().nextLong() >>> (64 - 41), 36);
            return new ProfileIds("0".repeat(Math.max(0, INSTANCE_CHARS - digits.length())) + digits);
        }

        /** The next profile's id, for a session of {@code trigger} starting {@code at}. */
        String next(SessionTrigger trigger, Instant at) {
            return TIME.format(at) + "-" + trigger.name().toLowerCase(Locale.ROOT) + "-" + sequence.incrementAndGet()
                    + "-" + instance;
        }
    }
}
