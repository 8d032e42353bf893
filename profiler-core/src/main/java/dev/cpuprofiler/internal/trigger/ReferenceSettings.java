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
 * @param settle how long the application must have been calm, at every poll, before a reference starts: the CPU
 *        average's window, so that the reference's baseline is a calm one too
 * @param minAveragePercent the least CPU average (percent of the effective CPUs) at which a reference is recorded: below
 *        it the application is idle, and a reference would hold fewer than {@link #MIN_SAMPLES} samples
 */
public record ReferenceSettings(boolean enabled, Duration duration, Duration refresh, Duration retryAfter,
        Duration settle, double minAveragePercent) {

    /**
     * The fewest stack samples a reference is worth recording for, at the CPU average: an idle application gets no
     * reference (it has no normal worth comparing with, and recording one would cost it more than everything else the
     * profiler does while it idles). The floor works with {@link #settle}: an application leaving its idle stretch is
     * busy enough at once, but not yet calm for long.
     */
    public static final int MIN_SAMPLES = 20;

    /** No references. */
    public static final ReferenceSettings OFF = new ReferenceSettings(false, Duration.ofSeconds(10),
            Duration.ofHours(1), ReferenceGivingWay.RETRY_AFTER);

    /** References at the first calm poll, whatever the CPU average (no idle floor): for tests of the other rules. */
    public ReferenceSettings(boolean enabled, Duration duration, Duration refresh, Duration retryAfter) {
        this(enabled, duration, refresh, retryAfter, Duration.ZERO, 0);
    }

    /** @param effectiveCpus the CPUs the average is a percentage of */
    public static ReferenceSettings of(CpuProfilerOptions o, double effectiveCpus) {
        CpuProfilerOptions.Reference r = o.getReference();
        double samplesAtFullLoad = effectiveCpus * r.getDuration().toNanos() / (double) o.getStackSamplingPeriod()
                .toNanos();
        return new ReferenceSettings(r.isEnabled(), r.getDuration(), r.getRefresh(), ReferenceGivingWay.RETRY_AFTER,
                o.getAverageWindow(),
                100.0 * MIN_SAMPLES / samplesAtFullLoad);
    }
}
