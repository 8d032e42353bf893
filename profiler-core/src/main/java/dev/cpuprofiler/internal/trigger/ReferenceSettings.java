package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;

/**
 * The reference of normal: a REFERENCE profile of {@code duration}, recorded by the profiler itself while the
 * application is calm, when there is none yet or the last is older than {@code refresh}; one that failed or was
 * cancelled is tried again at the next calm moment, but not before {@code retryAfter}.
 *
 * @param enabled whether references are recorded (and later profiles compared with them)
 * @param duration how long a reference records
 * @param refresh a new reference is due once the last is this old
 * @param retryAfter the least time between a reference that failed or was cancelled and the next attempt
 */
public record ReferenceSettings(boolean enabled, Duration duration, Duration refresh, Duration retryAfter) {

    /**
     * The least time between a failed or cancelled reference and the next attempt. A launch that fails (no engine, the
     * disk at its floor) costs a thread, an engine probe and a log line, so a broken engine tried at every calm poll
     * (every 5 s) would cost an idle application more than the reference itself; every 5 minutes it costs at most 12
     * cheap attempts an hour, and a reference cancelled by an incident is retried well before its hourly refresh.
     */
    public static final Duration RETRY_AFTER = Duration.ofMinutes(5);

    /** No references. */
    public static final ReferenceSettings OFF = new ReferenceSettings(false, Duration.ofSeconds(10),
            Duration.ofHours(1), RETRY_AFTER);

    public static ReferenceSettings of(CpuProfilerOptions o) {
        CpuProfilerOptions.Reference r = o.getReference();
        return new ReferenceSettings(r.isEnabled(), r.getDuration(), r.getRefresh(), RETRY_AFTER);
    }
}
