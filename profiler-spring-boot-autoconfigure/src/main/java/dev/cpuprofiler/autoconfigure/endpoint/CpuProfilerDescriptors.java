package dev.cpuprofiler.autoconfigure.endpoint;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.cpuprofiler.autoconfigure.export.ExportStatus;
import dev.cpuprofiler.autoconfigure.export.ProfileExporter;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.ConcurrencyReport;
import dev.cpuprofiler.CpuBreakdown;
import dev.cpuprofiler.ThreadCpu;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * The endpoint's JSON documents. They go through Spring Boot's endpoint mapper; the stack tree is embedded as
 * pre-rendered JSON because a tree deeper than about 250 frames exceeds Jackson's default nesting limit.
 * Instants and durations are ISO-8601 strings; absent values are written as {@code null}, as the contract shows.
 */
public final class CpuProfilerDescriptors {

    private CpuProfilerDescriptors() {
    }

    /** {@code GET /actuator/cpuprofiler}. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record StatusDescriptor(String state, CpuDescriptor cpu, TriggerDescriptor trigger,
            SessionDescriptor session, @JsonRawValue String latestProfile, List<ProfileSummary> profiles,
            List<ThreadDescriptor> threads, LookbackStatusDescriptor lookback, DiskDescriptor disk,
            ExportDescriptor export, HistoryDescriptor history, OnDemandDescriptor onDemand)
            implements OperationResponseBody {
    }

    /**
     * Whether this endpoint takes a {@code POST} that starts a profile (access {@code unrestricted}), and the duration
     * one lasts when the request names none ({@code profiler.cpu.duration}): what the status page's button needs.
     */
    public record OnDemandDescriptor(boolean allowed, String defaultDuration) {
    }

    /**
     * The recent CPU% the status page charts, compact: {@code samples} are the sampler's readings as
     * {@code [seconds, percent]} and {@code baseline} the rolling baseline's slots as {@code [from, to, percent]},
     * oldest first, with times in seconds relative to {@code at} (so 0 or below).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record HistoryDescriptor(String at, String samplingInterval, String slotInterval, List<double[]> samples,
            List<double[]> baseline) {

        static HistoryDescriptor of(CpuProfilerStatus.History h) {
            if (h == null) {
                return null;
            }
            return new HistoryDescriptor(iso(h.at()), iso(h.samplingInterval()), iso(h.slotInterval()),
                    h.samples().stream().map(p -> new double[] {seconds(h.at(), p.at()), round(p.percent())})
                            .toList(),
                    h.slots().stream().map(s -> new double[] {seconds(h.at(), s.start()), seconds(h.at(), s.end()),
                            round(s.percent())}).toList());
        }

        /** Seconds from {@code at} to {@code t}, to 0.1 s. */
        private static double seconds(Instant at, Instant t) {
            return Math.round(Duration.between(at, t).toMillis() / 100.0) / 10.0;
        }
    }

    /**
     * Profile export, or null when no export target is configured: the targets, profiles waiting, and the latest
     * push ({@code target}, {@code result}: success, retry, failure or dropped, {@code at}, the target's
     * {@code httpStatus} and a {@code message} saying why it failed), all null before the first.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ExportDescriptor(List<String> targets, int queued, String target, String profileId, String result,
            String at, Integer httpStatus, String message) {

        static ExportDescriptor of(ProfileExporter exporter) {
            if (exporter == null) {
                return null;
            }
            ExportStatus last = exporter.last().orElse(null);
            return last == null ? new ExportDescriptor(exporter.targets(), exporter.queued(), null, null, null, null,
                    null, null)
                    : new ExportDescriptor(exporter.targets(), exporter.queued(), last.target(), last.profileId(),
                            last.result().id(), iso(last.at()), last.httpStatus(), last.message());
        }
    }

    /**
     * Free space where the profiler writes; {@code problem} says why nothing records or is written now, or is null.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record DiskDescriptor(List<DiskPlaceDescriptor> places, String problem) {

        static DiskDescriptor of(CpuProfilerStatus.Disk d) {
            return new DiskDescriptor(d.places().stream().map(p -> new DiskPlaceDescriptor(p.role(), p.path(),
                    p.freeBytes(), p.floorBytes(), p.writable(), p.ok())).toList(), d.problem());
        }
    }

    /** One place the profiler writes to: {@code jfr-repository}, {@code work-directory} or {@code output-directory}. */
    public record DiskPlaceDescriptor(String role, String path, long freeBytes, long floorBytes, boolean writable,
            boolean ok) {
    }

    /**
     * What the look-back does now: {@code OFF} when {@code profiler.cpu.lookback} is 0 or the trigger is off;
     * {@code IDLE} (recording nothing) until the recent CPU ({@code recentCpuPercent}) exceeds
     * {@code armingPercent}, with the reason; {@code ARMED} (recording since {@code armedSince}) while it does.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record LookbackStatusDescriptor(String state, String reason, String window, String source,
            Double armingPercent, Double recentCpuPercent, String armedSince, String armsFrom, String samplingPeriod,
            String coveredFrom, long samples, long footprintBytes) {

        static LookbackStatusDescriptor of(CpuProfilerStatus.Lookback l) {
            return new LookbackStatusDescriptor(l.state().name(), l.reason(), iso(l.window()), l.source(),
                    round(l.armingPercent()), round(l.recentCpuPercent()), iso(l.armedSince()), iso(l.armsFrom()),
                    iso(l.samplingPeriod()), iso(l.coveredFrom()), l.samples(), l.footprintBytes());
        }
    }

    /** A thread's CPU: % of one core, and whether it is CPU-bound, mixed or mostly waiting. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ThreadDescriptor(String name, long id, double cpuPercent, String cpuTime, String label) {

        static ThreadDescriptor of(ThreadCpu t) {
            return new ThreadDescriptor(t.name(), t.id(), round(t.cpuPercent()), iso(t.cpuTime()), t.label().name());
        }
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record CpuDescriptor(String source, String cgroupPath, double effectiveCpuCount,
            String effectiveCpuOrigin, Double latestPercent, Double averagePercent, double thresholdPercent,
            String fallbackReason) {

        static CpuDescriptor of(CpuProfilerStatus.Cpu c) {
            return new CpuDescriptor(c.source(), c.cgroupPath(), c.effectiveCpuCount(), c.effectiveCpuOrigin(),
                    round(c.latestPercent()), round(c.averagePercent()), c.thresholdPercent(), c.fallbackReason());
        }
    }

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record TriggerDescriptor(boolean enabled, String cooldown, String cooldownUntil,
            String cooldownRemaining, String startupGraceUntil, String startupGraceRemaining) {

        static TriggerDescriptor of(CpuProfilerStatus.Trigger t) {
            return new TriggerDescriptor(t.enabled(), iso(t.cooldown()), iso(t.cooldownUntil()),
                    iso(t.cooldownRemaining()), iso(t.startupGraceUntil()), iso(t.startupGraceRemaining()));
        }
    }

    /** A running session. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record SessionDescriptor(String id, String trigger, String engine, String startedAt, String duration,
            String elapsed, long samples) implements OperationResponseBody {

        static SessionDescriptor of(CpuProfilerStatus.Session s) {
            return s == null ? null : new SessionDescriptor(s.id(), s.trigger().name(), s.engine(),
                    iso(s.startedAt()), iso(s.duration()), iso(s.elapsed()), s.samples());
        }

        static SessionDescriptor of(RunningSession s, Clock clock) {
            return of(CpuProfilerStatus.Session.of(s, clock));
        }
    }

    /**
     * A profile in the status's list; {@code hotMethod} is its top method by self time (null without samples),
     * {@code jfrFile} its kept recording as in the profile's JSON (null when {@code format=jfr} has none to give).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ProfileSummary(String id, String trigger, String engine, String startedAt, String endedAt,
            long samples, String duration, String hotMethod, String jfrFile) {

        static ProfileSummary of(Profile p, Function<Profile, String> hotMethod) {
            return new ProfileSummary(p.id(), p.trigger().name(), p.engine(), iso(p.startedAt()), iso(p.endedAt()),
                    p.samples(), iso(p.duration()), hotMethod.apply(p),
                    p.jfrFile() == null ? null : p.id() + ProfileFormat.JFR.extension());
        }
    }

    /**
     * A refused request: 400 (bad format, look-back view, duration or JSON body), 404 (no such profile), 429 (a
     * session is running: {@code running}; the {@code Retry-After} header says when it ends) or 503 (nothing can
     * record). {@code error} is the status's reason phrase, {@code message} says what to change.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ErrorDescriptor(int status, String error, String message, SessionDescriptor running)
            implements OperationResponseBody {
    }

    /**
     * @param latest the latest profile as the status shows it (folded), in JSON, or null before the first
     * @param hotMethod a profile's top method by self time, or null
     */
    static StatusDescriptor status(CpuProfilerStatus s, List<Profile> profiles, String latest,
            ProfileExporter exporter, CpuProfilerStatus.History history, Function<Profile, String> hotMethod,
            OnDemandDescriptor onDemand) {
        return new StatusDescriptor(s.state().name(), CpuDescriptor.of(s.cpu()), TriggerDescriptor.of(s.trigger()),
                SessionDescriptor.of(s.session()), latest,
                profiles.stream().map(p -> ProfileSummary.of(p, hotMethod)).toList(),
                s.threads().stream().map(ThreadDescriptor::of).toList(), LookbackStatusDescriptor.of(s.lookback()),
                DiskDescriptor.of(s.disk()), ExportDescriptor.of(exporter), HistoryDescriptor.of(history), onDemand);
    }

    private static double round(double percent) {
        return Math.round(percent * 100.0) / 100.0;
    }

    private static Double round(Double percent) {
        return percent == null ? null : Math.round(percent * 100.0) / 100.0;
    }

    private static String iso(Instant i) {
        return i == null ? null : i.toString();
    }

    private static String iso(Duration d) {
        return d == null ? null : d.toString();
    }
}
