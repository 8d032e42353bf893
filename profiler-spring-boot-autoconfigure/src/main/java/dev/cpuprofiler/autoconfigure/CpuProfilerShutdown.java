package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.RunningSession;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Keeps the profile a session is recording when the application shuts down (a SIGTERM, say: the restart of a pod
 * whose liveness probe failed under the very CPU spike the profile records): the session stops early
 * ({@link CpuProfiler#stopForShutdown()}), and its profile is stored, written to the output directory and pushed,
 * cut short and saying so, instead of being thrown away when the profiler closes.
 *
 * <p>It stops in {@link #PHASE}, that of Boot's web server graceful shutdown
 * ({@code WebServerGracefulShutdownLifecycle}), asynchronously: the session stops while the requests in flight drain,
 * neither waiting for the other, and the profile ends where the shutdown began (the drain is not what it was asked to
 * explain). A POST that would start a session meanwhile is refused: the profiler is shutting down. The exporter stops
 * in the phase after ({@link #EXPORTER_PHASE}), once the profile is queued, so it gets the push out (within its drain
 * time-out); the profiler closes with its bean, after every phase.
 *
 * <p>The shutdown waits at most {@link #MAX_WAIT} for the profile, less when
 * {@code spring.lifecycle.timeout-per-shutdown-phase} is shorter: an engine that hangs holds the application no
 * longer, and the profiler's close gives up on it (its own short wait later). Worst case the shutdown lasts this wait,
 * the exporter's drain time-out and the close's wait longer; usually the profile is kept in well under a second.
 */
public class CpuProfilerShutdown implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CpuProfilerShutdown.class);

    /** Boot's {@code WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE}. */
    public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;
    /** The exporter's phase: stopped after this one, so the profile kept here is still pushed. */
    public static final int EXPORTER_PHASE = PHASE - 1;
    /** The longest the shutdown waits for the profile of the session it stopped. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(5);

    private final CpuProfiler profiler;
    private final Duration wait;
    private volatile boolean running;

    /** @param phaseTimeout {@code spring.lifecycle.timeout-per-shutdown-phase}: no longer is waited */
    public CpuProfilerShutdown(CpuProfiler profiler, Duration phaseTimeout) {
        this.profiler = Objects.requireNonNull(profiler, "profiler");
        this.wait = phaseTimeout.compareTo(MAX_WAIT) < 0 ? phaseTimeout : MAX_WAIT;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /** Not stopped by a pause of the context ({@code ConfigurableApplicationContext.pause()}): its stop is for good. */
    @Override
    public boolean isPauseable() {
        return false;
    }

    /** Stops the session and waits for its profile (at most the wait). */
    @Override
    public void stop() {
        Optional<RunningSession> stopping = stopSession();
        stopping.ifPresent(s -> {
            try {
                s.outcome().toCompletableFuture().get(wait.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                timedOut(s);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // never: the outcome does not complete exceptionally
            }
        });
    }

    /** Stops the session and says it is done once its profile is kept, or after the wait. */
    @Override
    public void stop(Runnable callback) {
        Optional<RunningSession> stopping = stopSession();
        if (stopping.isEmpty()) {
            callback.run();
            return;
        }
        RunningSession s = stopping.get();
        // A copy: the time-out must not complete the session's own outcome.
        s.outcome().toCompletableFuture().copy().orTimeout(wait.toNanos(), TimeUnit.NANOSECONDS)
                .whenComplete((outcome, timeout) -> {
                    if (timeout != null) {
                        timedOut(s);
                    }
                    callback.run();
                });
    }

    private Optional<RunningSession> stopSession() {
        running = false;
        Optional<RunningSession> stopping = profiler.stopForShutdown();
        stopping.ifPresent(s -> log.info("Stopping profiling session {} early to keep its profile: the application "
                + "is shutting down", s.id()));
        return stopping;
    }

    private void timedOut(RunningSession s) {
        log.warn("Profiling session {} did not store its profile within {} ms of the shutdown: the shutdown goes on",
                s.id(), wait.toMillis());
    }
}
