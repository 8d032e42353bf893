package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.EngineChoice;

import dev.cpuprofiler.internal.stack.StackSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the engine a {@link EngineChoice} asks for. {@code auto} tries the engines in order and the first that
 * starts records; every engine passed over, with its reason, goes into the result. An explicit choice tries only
 * that engine and fails with its reason. One recording at a time, through the injected {@link EngineLock}.
 */
public final class EngineSelector {

    private static final Logger log = LoggerFactory.getLogger(EngineSelector.class);

    /** Why {@code auto} passed over an engine that would have recorded, requests being on virtual threads. */
    static final String BLIND = "passed over: the application serves requests on virtual threads, and this engine's "
            + "samples name their carrier threads, so no sample could be joined with its request";

    private final List<ProfilingEngine> engines;
    private final EngineLock lock;
    // Why an engine cannot record rarely changes; say it once per engine, not every session.
    private final Set<String> reported = ConcurrentHashMap.newKeySet();

    /**
     * @param enginesInPreferenceOrder the engines {@code auto} tries, first choice first
     * @param lock shared by everything that must not record at the same time
     */
    public EngineSelector(List<ProfilingEngine> enginesInPreferenceOrder, EngineLock lock) {
        this.engines = List.copyOf(enginesInPreferenceOrder);
        this.lock = Objects.requireNonNull(lock, "lock");
    }

    /** New instances of the three engines in {@code auto} order: jfr-cpu-time, async-profiler, jfr-execution. */
    public static List<ProfilingEngine> standardEngines() {
        return standardEngines(new JfrSetup(), new DebugNonSafepointsCheck());
    }

    /**
     * As {@link #standardEngines()}, sharing one JFR stack-depth setting and one view of {@code DebugNonSafepoints}
     * (which loading async-profiler turns on for all of them).
     */
    public static List<ProfilingEngine> standardEngines(JfrSetup jfrSetup,
            DebugNonSafepointsCheck debugNonSafepoints) {
        return standardEngines(jfrSetup, debugNonSafepoints, JfrPeriodicTaskKeeper.none());
    }

    /** As above, the JFR engines telling {@code jfrKeeper} before each recording starts. */
    public static List<ProfilingEngine> standardEngines(JfrSetup jfrSetup,
            DebugNonSafepointsCheck debugNonSafepoints, JfrPeriodicTaskKeeper jfrKeeper) {
        return List.of(new JfrCpuTimeEngine(jfrSetup, debugNonSafepoints, jfrKeeper),
                new AsyncProfilerEngine(null, debugNonSafepoints),
                new JfrExecutionEngine(jfrSetup, debugNonSafepoints, jfrKeeper));
    }

    /**
     * Starts one engine.
     *
     * @throws EngineLock.BusyException if a recording holds the lock
     * @throws EngineUnavailableException if the chosen engine, or with {@code auto} every engine, cannot record
     */
    public SelectedRecording start(EngineChoice choice, EngineSettings settings, StackSink sink)
            throws EngineUnavailableException {
        return start(choice, settings, sink, false);
    }

    /**
     * As {@link #start(EngineChoice, EngineSettings, StackSink)}; when the application serves requests on virtual
     * threads, {@code auto} tries the engines that {@linkplain ProfilingEngine#seesVirtualThreads() see them} first,
     * so that profiles can name the request each sample served.
     */
    public SelectedRecording start(EngineChoice choice, EngineSettings settings, StackSink sink,
            boolean virtualThreads) throws EngineUnavailableException {
        EngineLock.Lease lease = lock.tryAcquire(choice.id() + " recording '" + settings.recordingName() + "'")
                .orElseThrow(() -> new EngineLock.BusyException(choice.id(), lock.holder().orElse("just finished")));
        try {
            return choice == EngineChoice.AUTO ? startFirstAvailable(settings, sink, lease, virtualThreads)
                    : startOnly(choice.id(), settings, sink, lease);
        } catch (EngineUnavailableException | RuntimeException | Error e) {
            lease.release();
            throw e;
        }
    }

    /** Whether an engine this choice may record with turns {@code DebugNonSafepoints} on when it first records. */
    public boolean mayTurnOnDebugNonSafepoints(EngineChoice choice) {
        return engines.stream().anyMatch(e -> (choice == EngineChoice.AUTO || choice.id().equals(e.id()))
                && e.turnsOnDebugNonSafepoints());
    }

    private SelectedRecording startFirstAvailable(EngineSettings settings, StackSink sink, EngineLock.Lease lease,
            boolean virtualThreads) throws EngineUnavailableException {
        List<Profile.EngineFallback> fallbacks = new ArrayList<>();
        List<ProfilingEngine> order = new ArrayList<>(engines);
        List<ProfilingEngine> blind = new ArrayList<>();
        if (virtualThreads) {
            order.removeIf(e -> !e.seesVirtualThreads() && blind.add(e));
            order.addAll(blind);
        }
        for (ProfilingEngine engine : order) {
            try {
                EngineRecording recording = engine.start(settings, sink);
                log.debug("profiling with {}{}", engine.id(), fallbacks.isEmpty() ? "" : " after " + fallbacks);
                List<Profile.EngineFallback> passedOver = new ArrayList<>(fallbacks);
                blind.stream().filter(b -> b != engine && order.indexOf(b) > order.indexOf(engine)
                        && engines.indexOf(b) < engines.indexOf(engine)).forEach(b -> passedOver.add(
                                new Profile.EngineFallback(b.id(), BLIND)));
                return new SelectedRecording(recording, passedOver, lease, engine.seesVirtualThreads());
            } catch (EngineUnavailableException e) {
                fallbacks.add(new Profile.EngineFallback(engine.id(), e.reason()));
                reportOnce(engine.id(), "Profiling engine {} cannot record, trying the next one: {}", e.reason(), false,
                        e.getCause());
            } catch (RuntimeException | LinkageError e) {
                // A broken engine (or a runtime without jdk.jfr) must not take auto down with it.
                String reason = "failed to start (" + EngineUnavailableException.unexpected(e) + ")";
                fallbacks.add(new Profile.EngineFallback(engine.id(), reason));
                reportOnce(engine.id(), "Profiling engine {} cannot record, trying the next one: {}", reason, true,
                        e);
            }
        }
        String reasons = fallbacks.stream().map(f -> f.engineId() + ": " + f.reason())
                .collect(Collectors.joining("; "));
        throw new EngineUnavailableException(EngineChoice.AUTO.id(),
                fallbacks.isEmpty() ? "no engines configured" : "no engine can record (" + reasons + ")");
    }

    private SelectedRecording startOnly(String id, EngineSettings settings, StackSink sink, EngineLock.Lease lease)
            throws EngineUnavailableException {
        ProfilingEngine engine = engines.stream().filter(e -> e.id().equals(id)).findFirst()
                .orElseThrow(() -> new EngineUnavailableException(id, "this engine is not configured"));
        try {
            return new SelectedRecording(engine.start(settings, sink), List.of(), lease, engine.seesVirtualThreads());
        } catch (EngineUnavailableException e) {
            reportOnce(id, "Profiling engine {} (chosen by profiler.cpu.engine) cannot record: {}", e.reason(), true,
                    e.getCause());
            throw e;
        } catch (RuntimeException | LinkageError e) {
            String reason = "failed to start (" + EngineUnavailableException.unexpected(e) + ")";
            reportOnce(id, "Profiling engine {} (chosen by profiler.cpu.engine) cannot record: {}", reason, true, e);
            throw new EngineUnavailableException(id, reason, e);
        }
    }

    /** @param failure the exception behind the reason, logged with it (the reason is served without its text) */
    private void reportOnce(String engineId, String message, String reason, boolean warn, Throwable failure) {
        if (reported.add(engineId)) {
            if (warn) {
                log.warn(message, engineId, reason, failure);
            } else {
                log.info(message, engineId, reason, failure);
            }
        } else {
            log.debug(message, engineId, reason, failure);
        }
    }
}
