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
 * @param minAveragePercent the least CPU average (percent of the effective CPUs) at which a reference is recorded: below
 *        it the application is idle, and a reference would hold fewer than {@link #MIN_SAMPLES} samples
 */
public record ReferenceSettings(boolean enabled, Duration duration, Duration refresh, Duration retryAfter,
        double minAveragePercent) {

    /**
     * The fewest stack samples a reference is worth recording for: none for now. A floor (20: an idle application would
     * get no reference) made the reference start with the first busy seconds, which are often the start of a rise: it
     * then held the engine the look-back needs (the sample application's incident lost its look-back part). A floor
     * needs a rule for "calm and busy for a while" first.
     */
    public static final int MIN_SAMPLES = 0;

    /**
     * The least time between a failed or cancelled reference and the next attempt. A launch that fails (no engine, the
     * disk at its floor) costs a thread, an engine probe and a log line, so a broken engine tried at every calm poll
     * (every 5 s) would cost an idle application more than the reference itself; every 5 minutes it costs at most 12
     * cheap attempts an hour, and a reference cancelled by an incident is retried well before its hourly refresh.
     */
    public static final Duration RETRY_AFTER = Duration.ofMinutes(5);

    /** No references. */
    public static final ReferenceSettings OFF = new ReferenceSettings(false, Duration.ofSeconds(10),
            Duration.ofHours(1), RETRY_AFTER, 0);

    /** References whatever the CPU average (no idle floor): for tests of the other rules. */
    public ReferenceSettings(boolean enabled, Duration duration, Duration refresh, Duration retryAfter) {
        this(enabled, duration, refresh, retryAfter, 0);
    }

    /** @param effectiveCpus the CPUs the average is a percentage of */
    public static ReferenceSettings of(CpuProfilerOptions o, double effectiveCpus) {
        CpuProfilerOptions.Reference r = o.getReference();
        double samplesAtFullLoad = effectiveCpus * r.getDuration().toNanos() / (double) o.getStackSamplingPeriod()
                .toNanos();
        return new ReferenceSettings(r.isEnabled(), r.getDuration(), r.getRefresh(), RETRY_AFTER,
                100.0 * MIN_SAMPLES / samplesAtFullLoad);
    }
}
