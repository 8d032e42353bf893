package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.cpu.CpuSampleListener;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * Polls the {@link SessionCoordinator} (one trigger check) every polling interval on the CPU sampler's tick, timed by
 * the samples' own nanoTime, instead of on a thread of its own: a thread woken every few seconds costs an idle
 * application more than the check itself. The first poll comes one polling interval after the first sample.
 *
 * <p>The check is quick and never waits for a launch; a session it starts is launched on a thread made for that
 * launch alone (the look-back hands over, an engine starts: a second or more), so the sampler is never held up, and
 * no launch thread exists while nothing is launched.
 */
public final class TriggerPoller implements CpuSampleListener {

    private final SessionCoordinator coordinator;
    private final long intervalNanos;
    private final long toleranceNanos;
    private final Executor launches;
    private boolean started;
    private long lastPoll;

    /** Checks every {@code polling-interval}, on the samples of {@code sampling-interval}. */
    public static TriggerPoller of(SessionCoordinator coordinator, CpuProfilerOptions options,
            ThreadFactory launchThreads) {
        return new TriggerPoller(coordinator, options.getPollingInterval(), options.getSamplingInterval(),
                launchThreads);
    }

    /**
     * @param pollingInterval how often the trigger is checked
     * @param samplingInterval how often samples arrive: a poll due within half of it is taken at this sample rather
     *        than one sample late
     * @param launchThreads makes the thread each launch runs on (name it, make it a daemon)
     */
    public TriggerPoller(SessionCoordinator coordinator, Duration pollingInterval, Duration samplingInterval,
            ThreadFactory launchThreads) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.intervalNanos = Objects.requireNonNull(pollingInterval, "pollingInterval").toNanos();
        if (intervalNanos <= 0 || samplingInterval.isNegative() || samplingInterval.isZero()) {
            throw new IllegalArgumentException("intervals must be positive: " + pollingInterval + ", "
                    + samplingInterval);
        }
        this.toleranceNanos = Math.min(samplingInterval.toNanos(), intervalNanos) / 2;
        Objects.requireNonNull(launchThreads, "launchThreads");
        this.launches = launch -> launchThreads.newThread(launch).start();
    }

    /** Runs on the sampler's thread only. */
    @Override
    public void onSample(long nanoTime, long cpuTimeNanos, double percent) {
        if (!started) {
            started = true;
            lastPoll = nanoTime;
            return;
        }
        if (nanoTime - lastPoll + toleranceNanos < intervalNanos) {
            return;
        }
        lastPoll = nanoTime;
        coordinator.poll(launches);
    }
}
