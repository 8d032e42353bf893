package dev.cpuprofiler.session;

import dev.cpuprofiler.session.engine.EngineSelector;
import dev.cpuprofiler.session.engine.EngineSettings;
import dev.cpuprofiler.session.engine.EngineUnavailableException;
import dev.cpuprofiler.session.engine.SelectedRecording;
import dev.cpuprofiler.stack.StackTree;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts sessions: picks an engine (with fallbacks), records into a fresh {@link StackTree} on a thread of
 * its own, and stores the profile when done.
 */
public final class ProfilingSessions implements SessionLauncher, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProfilingSessions.class);
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    private final EngineSelector selector;
    private final SessionSettings settings;
    private final ProfileStore store;
    private final Clock clock;
    private final ThreadFactory threadFactory;
    private final Path workDirectory;
    private final Function<Instant, Supplier<Double>> cpuMeter;
    private final AtomicLong sequence = new AtomicLong();
    private volatile ProfilingSession current;

    /**
     * @param workDirectory where engines put their temporary recordings
     * @param cpuMeter given a session's start, a supplier of the average CPU% since then (null if unknown)
     */
    public ProfilingSessions(EngineSelector selector, SessionSettings settings, ProfileStore store, Clock clock,
            ThreadFactory threadFactory, Path workDirectory,
            Function<Instant, Supplier<Double>> cpuMeter) {
        this.selector = Objects.requireNonNull(selector, "selector");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.workDirectory = Objects.requireNonNull(workDirectory, "workDirectory");
        this.cpuMeter = Objects.requireNonNull(cpuMeter, "cpuMeter");
    }

    @Override
    public RunningSession launch(SessionTrigger trigger, Duration duration) {
        Instant now = clock.instant();
        String id = ID_TIME.format(now) + "-" + trigger.name().toLowerCase(Locale.ROOT) + "-"
                + sequence.incrementAndGet();
        StackTree tree = new StackTree(settings.maxStackDepth(), settings.maxTreeNodes(), settings.groupByThread());
        SelectedRecording recording;
        try {
            recording = selector.start(settings.engine(),
                    new EngineSettings(settings.samplingPeriod(), settings.maxStackDepth(), workDirectory, id), tree);
        } catch (EngineUnavailableException e) {
            throw new SessionStartException("no profiling engine could record: " + e.getMessage(), e);
        }
        // The session's clock starts once the engine records: starting one can take a while (loading
        // async-profiler's native library, JFR's first recording), and that time holds no samples.
        Instant started = clock.instant();
        ProfilingSession session = new ProfilingSession(id, trigger, recording, tree, started, duration,
                settings.samplingPeriod(), store, clock, cpuMeter.apply(started));
        Thread thread;
        try {
            thread = threadFactory.newThread(session);
            thread.start();
        } catch (RuntimeException | Error e) {
            recording.cancel();
            throw e;
        }
        current = session;
        log.debug("Session {} ({}) recording with {} for {}", id, trigger, recording.engineId(), duration);
        return session;
    }

    public ProfileStore store() {
        return store;
    }

    /** Cancels the running session, if any, and waits briefly for its thread to let go of the engine. */
    @Override
    public void close() {
        ProfilingSession s = current;
        if (s != null && !s.isDone()) {
            s.cancel("the profiler is shutting down");
            if (!s.awaitEnd(Duration.ofSeconds(10))) {
                log.warn("Profiling session {} did not stop within 10 s", s.id());
            }
        }
    }
}
