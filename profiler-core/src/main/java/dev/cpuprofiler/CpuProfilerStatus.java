package dev.cpuprofiler;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Everything the profiler can tell about itself, taken at one moment: what the endpoint's JSON, the status page and
 * the meters show, read from here only. Times are {@link Instant}s and durations {@link Duration}s (ISO-8601 strings
 * in JSON); percentages are rounded to 0.01; absent values are null, and JSON writes them as {@code null}.
 *
 * @param state what the trigger does now
 * @param cpu the CPU monitor
 * @param trigger the CPU trigger's settings, cooldown and start-up grace
 * @param session the session recording now, or null when none runs (or one is still being launched)
 * @param latestProfile the newest profile that is not a reference of normal, or null before the first; not in this
 *        record's JSON (the endpoint writes it with the JSON format, folded)
 * @param reference the reference of normal in force (the newest recorded), which later profiles are compared with;
 *        null before the first, or with references off
 * @param profiles the kept profiles, newest first, references included
 * @param threads the top threads by recent CPU
 * @param saturation the saturation trigger's view: the hottest application thread now
 * @param lookback what the look-back does (state {@code OFF} when it is switched off)
 * @param disk the free space where the profiler writes
 * @param history the recent CPU% and the baseline's slots, for a chart
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CpuProfilerStatus(State state, Cpu cpu, Trigger trigger, Session session,
        @JsonIgnore Profile latestProfile, Reference reference, List<ProfileSummary> profiles, List<ThreadCpu> threads,
        Saturation saturation, Lookback lookback, Disk disk, History history) {

    public CpuProfilerStatus {
        profiles = List.copyOf(profiles);
        threads = List.copyOf(threads);
    }

    /**
     * The reference of normal in force: a profile (trigger REFERENCE) recorded while the application was calm.
     *
     * @param id its profile id ({@code GET /{id}} serves it)
     * @param recordedAt when it finished recording, from which its age and the next refresh count
     * @param samples its samples
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Reference(String id, Instant recordedAt, long samples) {

        public static Reference of(Profile reference) {
            return new Reference(reference.id(), reference.recording().endedAt(), reference.recording().samples());
        }
    }

    /**
     * A kept profile, in the status's list.
     *
     * @param hotMethod its method with the most self time, or null without samples
     * @param jfrFile the name {@code format=jfr} downloads its recording as, or null when it has none
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ProfileSummary(String id, SessionTrigger trigger, String engine, Instant startedAt,
            Instant endedAt, long samples, Duration duration, String hotMethod, String jfrFile) {
    }

    /**
     * What the CPU monitor sees now.
     *
     * @param source {@code cgroup-v2}, {@code cgroup-v1} or {@code process}
     * @param cgroupPath the cgroup directory read, or null for the process source
     * @param effectiveCpuCount CPUs the percentages are relative to (fractional quotas kept)
     * @param effectiveCpuOrigin where that number came from
     * @param latestPercent the last sample, null before the second sample
     * @param averagePercent the baseline the policy compares, null before the first rolling interval completes
     * @param thresholdPercent the trigger threshold
     * @param fallbackReason why the process source is used although a cgroup was wanted, or null
     * @param highestAveragePercent the highest average over the kept history (how close the CPU came to the
     *        threshold), null before the first rolling interval completes
     * @param keptHistory the span of history that highest average is taken from (up to rolling-history-size)
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Cpu(String source, String cgroupPath, double effectiveCpuCount, String effectiveCpuOrigin,
            Double latestPercent, Double averagePercent, double thresholdPercent, String fallbackReason,
            Double highestAveragePercent, Duration keptHistory) {
    }

    /**
     * The CPU trigger's settings and cooldown.
     *
     * @param enabled whether high CPU starts profiles
     * @param cooldown the configured cooldown
     * @param cooldownUntil when the current cooldown ends, or null
     * @param cooldownRemaining time left in it, or null
     * @param startupGraceUntil when the start-up grace ends (no CPU trigger, no look-back before), or null once over
     * @param startupGraceRemaining time left in it, or null
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Trigger(boolean enabled, Duration cooldown, Instant cooldownUntil, Duration cooldownRemaining,
            Instant startupGraceUntil, Duration startupGraceRemaining) {
    }

    /**
     * The saturation trigger: one application thread pinned at a core, whatever the process's CPU%.
     *
     * @param enabled whether a pinned thread starts profiles (off with the CPU trigger, or without per-thread CPU)
     * @param thresholdPercent the percent of one core a thread's average must reach
     * @param window the span that average covers
     * @param thread the hottest application thread at the latest tick (a pinned one first), or null when none was
     *        active
     * @param percentOfCore its CPU averaged over the window (over its life, when shorter), or null
     * @param aboveFor how long that average has stayed at or above the threshold over a whole window; null when it
     *        is not
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Saturation(boolean enabled, double thresholdPercent, Duration window, String thread,
            Double percentOfCore, Duration aboveFor) {
    }

    /** A snapshot of the running session. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Session(String id, SessionTrigger trigger, String engine, Instant startedAt, Duration duration,
            Duration elapsed, long samples) {

        public static Session of(RunningSession s) {
            return new Session(s.id(), s.trigger(), s.engine(), s.startedAt(), s.duration(), s.elapsed(),
                    s.samplesSoFar());
        }
    }

    /**
     * Free space where the profiler writes, against its floor ({@code profiler.cpu.min-free-disk-space}).
     *
     * @param places each place it writes, with its filesystem's free space
     * @param problem why something cannot be recorded or written now (the first place below its floor), or null
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Disk(List<Place> places, String problem) {

        public Disk {
            places = List.copyOf(places);
        }

        /**
         * One place.
         *
         * @param role {@code jfr-repository}, {@code work-directory} or {@code output-directory}
         * @param path the directory
         * @param freeBytes what this process may still write on its filesystem
         * @param floorBytes what the profiler leaves free there
         * @param writable whether this process may write there at all
         */
        public record Place(String role, String path, long freeBytes, long floorBytes, boolean writable) {

            /** Whether the profiler may write here now (writable, and above its floor). */
            @JsonProperty("ok")
            public boolean ok() {
                return writable && freeBytes >= floorBytes;
            }
        }
    }

    /**
     * The look-back now, for the endpoint's status.
     *
     * @param state what it is doing
     * @param window how far back it reaches
     * @param samplingPeriod the period its samples come at now
     * @param coveredFrom the earliest time a sample it holds can have; null unless armed
     * @param armsFrom the earliest time it may arm (the start-up grace's end, or one window before a cooldown ends);
     *     null when nothing holds it back
     * @param samples samples held now
     * @param footprintBytes approximate heap the ring holds
     * @param reason why it is idle, waits or cannot record; null otherwise
     * @param source what it samples, e.g. {@code jdk.ExecutionSample}
     * @param armingPercent the CPU% the recent average must exceed to arm it now: its normal plus a rise, at least
     *     the floor ({@code lookback-arming-ratio} of the threshold) and at most the threshold; null when it is always
     *     armed
     * @param recentCpuPercent the recent CPU% it compares with that level; null until there are enough samples
     * @param armedSince when it armed; null unless armed
     * @param normalPercent the CPU% that is normal lately (the lowest 10-s average of the last 2 minutes), which the
     *     arming level rises with; null until 10 s of samples
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Lookback(LookbackState state, Duration window, Duration samplingPeriod, Instant coveredFrom,
            Instant armsFrom, long samples, long footprintBytes, String reason, String source, Double armingPercent,
            Double recentCpuPercent, Instant armedSince, Double normalPercent) {

        /** What a look-back that is switched off says. */
        public static final Lookback OFF = new Lookback(LookbackState.OFF, Duration.ZERO, Duration.ZERO, null, null,
                0, 0, null, null, null, null, null, null);
    }

    /** What the look-back is doing. */
    public enum LookbackState {
        /** Not configured ({@code profiler.cpu.lookback} is 0, or the CPU trigger is off). */
        OFF,
        /** Configured, not started yet or closed. */
        STOPPED,
        /**
         * Records nothing (no JFR, an empty ring): the CPU is below the arming level, or the start-up grace or a
         * cooldown holds it back. The status says which.
         */
        IDLE,
        /** Armed: sampling into its ring. */
        ARMED,
        /** Stepped aside for a session that records now. */
        STEPPED_ASIDE,
        /** Wants to record but another recording holds the engine lock; retries every second. */
        WAITING,
        /**
         * Its sampler cannot run now (no JFR in this JVM, or the disk under JFR's repository at the free-space floor);
         * tried again every minute and after the next session.
         */
        UNAVAILABLE
    }

    /**
     * The recent CPU% for a chart, compact: {@code samples} are the sampler's readings as {@code [seconds, percent]}
     * and {@code baseline} the rolling baseline's slots (each the true average over its interval, as the trigger sees
     * it) as {@code [from, to, percent]}, oldest first, with times in seconds relative to {@code at} (0 or below, to
     * 0.1 s) and percentages to 0.01.
     *
     * @param at when it was read
     * @param samplingInterval how often the sampler reads
     * @param slotInterval the length of one baseline slot
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record History(Instant at, Duration samplingInterval, Duration slotInterval, List<double[]> samples,
            List<double[]> baseline) {
    }

    public enum State {
        /** The CPU trigger is off ({@code profiler.cpu.enabled=false}); on-demand profiles still work. */
        DISABLED,
        /** Watching the baseline. */
        MONITORING,
        /** A session is recording. */
        PROFILING,
        /** Quiet after a CPU-triggered session, until its end + cooldown. */
        COOLDOWN
    }
}
