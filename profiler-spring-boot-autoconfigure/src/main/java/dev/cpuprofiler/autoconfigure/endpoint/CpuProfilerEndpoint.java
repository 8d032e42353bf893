package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionAlreadyRunningException;
import dev.cpuprofiler.SessionStartException;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.OnDemandDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.StatusDescriptor;
import dev.cpuprofiler.autoconfigure.export.ProfileExporter;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.format.ProfileView.Group;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.MimeType;

/**
 * {@code /actuator/cpuprofiler}: the status and the latest profile ({@code GET}; a browser gets the
 * {@link StatusPage}), one profile ({@code GET /{id}?format=&lookback=&group=&thread=}, {@code latest} for the newest), and
 * an on-demand profile ({@code POST}, optional {@code duration}), which needs
 * {@code management.endpoint.cpuprofiler.access=unrestricted}. Refusals say why ({@link Replies}).
 */
@WebEndpoint(id = CpuProfilerEndpoint.ID, defaultAccess = Access.READ_ONLY)
public class CpuProfilerEndpoint {

    public static final String ID = "cpuprofiler";

    private static final Logger log = LoggerFactory.getLogger(CpuProfilerEndpoint.class);
    private static final String V3 = "application/vnd.spring-boot.actuator.v3+json";
    private static final String V2 = "application/vnd.spring-boot.actuator.v2+json";
    private static final String DURATIONS = "between " + words(CpuProfilerOptions.MIN_DURATION) + " and "
            + words(CpuProfilerOptions.MAX_DURATION);

    /** The status's view of the latest profile: with its look-back part, frames below 0.5% folded, to stay small. */
    static final ProfileView STATUS_VIEW = new ProfileView(LookbackView.INCLUDE, 0.5);

    private final CpuProfiler profiler;
    private final Supplier<@Nullable ProfileExporter> exporter;
    private final BooleanSupplier writesAllowed;
    private final ProfileRenders renders;
    /** The latest profile's folded JSON, built once per profile rather than on every poll. */
    private volatile @Nullable LatestView latestView;

    /**
     * @param exporter the profile exporter, or a supplier of null when nothing is exported
     * @param writesAllowed whether the write operation is reachable: the status page offers its button then
     */
    public CpuProfilerEndpoint(CpuProfiler profiler, Supplier<@Nullable ProfileExporter> exporter,
            BooleanSupplier writesAllowed) {
        this(profiler, exporter, writesAllowed, new ProfileRenders());
    }

    CpuProfilerEndpoint(CpuProfiler profiler, Supplier<@Nullable ProfileExporter> exporter,
            BooleanSupplier writesAllowed, ProfileRenders renders) {
        this.profiler = profiler;
        this.exporter = exporter;
        this.writesAllowed = writesAllowed;
        this.renders = renders;
    }

    public StatusDescriptor status() {
        CpuProfilerStatus s = profiler.status();
        CpuProfilerOptions o = profiler.options();
        ProfileExporter export = exporter.get();
        return new StatusDescriptor(s, latestView(s.latestProfile()), export == null ? null : export.descriptor(),
                new OnDemandDescriptor(writesAllowed.getAsBoolean(), o.getDuration(), o.getTraceUrlTemplate()));
    }

    /** The page for a browser or {@code ?format=html}; else the JSON ({@code application/json} for {@code json}). */
    @ReadOperation(produces = {V3, V2, "application/json", "text/html"})
    public WebEndpointResponse<?> statusOrPage(@Nullable String format, @Nullable ResponseFormat accept) {
        String f = format == null || format.isBlank() ? (accept == ResponseFormat.HTML ? "html" : "")
                : format.trim().toLowerCase(Locale.ROOT);
        return switch (f) {
            case "" -> new WebEndpointResponse<>(status(), WebEndpointResponse.STATUS_OK);
            case "json" -> new WebEndpointResponse<>(status(), WebEndpointResponse.STATUS_OK,
                    MimeType.valueOf("application/json"));
            case "html" -> StatusPage.HTML.response();
            default -> Replies.error(accept == ResponseFormat.HTML ? accept : ResponseFormat.JSON, 400,
                    "Unknown format '" + format + "': use html or json (a profile's other formats are under /{id}, "
                            + "e.g. latest?format=text)", null);
        };
    }

    private @Nullable String latestView(@Nullable Profile latest) {
        LatestView cached = latestView;
        try {
            if (latest != null && (cached == null || cached.profile() != latest)) {
                latestView = cached = new LatestView(latest, new String(ProfileFormat.JSON.bytes(latest, STATUS_VIEW),
                        StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return latest == null ? null : cached.json();
    }

    private record LatestView(Profile profile, String json) {
    }

    /**
     * One profile in one of {@link ProfileFormat#served()}, or the status page's script or style. Refusals come in the
     * format the {@code Accept} header asks for ({@code answer}), so that no header turns them into a 406 or a 500.
     */
    @ReadOperation(produces = {V3, V2, "application/json", "text/plain", "text/html", "application/octet-stream"})
    public WebEndpointResponse<?> profile(@Selector String id, @Nullable String format, @Nullable String lookback,
            @Nullable String group, @Nullable String thread, @Nullable ResponseFormat answer) {
        StatusPage pageFile = StatusPage.SCRIPT_AND_STYLE.get(id);
        if (pageFile != null) {
            return pageFile.response();
        }
        ProfileFormat f = format == null || format.isBlank() ? ProfileFormat.JSON
                : ProfileFormat.of(format).orElse(null);
        LookbackView view = lookback == null || lookback.isBlank() ? LookbackView.INCLUDE
                : LookbackView.of(lookback).orElse(null);
        Group g = group == null || group.isBlank() ? null : Group.of(group).orElse(null);
        String unknown = f == null ? "format '" + format + "': use " + formatNames()
                : view == null ? "lookback '" + lookback + "': use include, exclude or only"
                : g == null && group != null && !group.isBlank() ? "group '" + group + "': use none, thread or endpoint"
                : null;
        if (unknown != null) {
            return Replies.error(answer, 400, "Unknown " + unknown, null);
        }
        String shaped = view != LookbackView.INCLUDE ? "lookback=" + view.id() : g != null ? "group=" + g.id()
                : thread != null && !thread.isBlank() ? "thread=" + thread : null;
        if (f == ProfileFormat.JFR && shaped != null) {
            return Replies.error(answer, 400, shaped + " does not apply to format=jfr: the recording is the session's "
                    + "own as the engine wrote it (every thread, never grouped, the look-back part never in it); leave "
                    + "lookback, group and thread out, or use another format", null);
        }
        Profile p = profiler.profile(id).orElse(null);
        ProfileView shown = p == null ? null : ProfileView.of(view, g).ofThread(thread, p, f);
        Optional<String> missing = p == null ? Optional.of("No profile '" + id + "'" + (profiler.profiles()
                .isEmpty() ? ": none recorded yet" : "")) : f.missing(p).or(() -> shown.missing(p));
        if (missing.isPresent()) {
            return Replies.error(answer, 404, missing.get(), null);
        }
        String filename = p.id() + f.extension();
        try {
            if (f == ProfileFormat.JFR) {
                // Opened now, streamed later: the store may delete the file once the profile is dropped.
                return ProfileDownload.open(p.jfrFile(), filename, f.mediaType());
            }
            byte[] bytes = renders.bytes(p, f, shown, profiler.profiles()).orElse(null);
            if (bytes == null) {
                return Replies.busy(answer, "Profile '" + p.id() + "' cannot be rendered now: other renders are "
                        + "under way; try again in a second");
            }
            if (f.download()) {
                return ProfileDownload.of(bytes, filename, f.mediaType());
            }
            // Text as text; JSON as bytes, which no JSON encoder would quote as a string.
            return new WebEndpointResponse<>(f.mediaType().startsWith("text/") ? new String(bytes,
                    StandardCharsets.UTF_8) : bytes, 200, MimeType.valueOf(f.mediaType()));
        } catch (IOException | RuntimeException | LinkageError e) {
            // E.g. protobuf-java missing on the application's class path, or the recording gone: this answer fails.
            // The exception (a path, anything) goes to the log, once; the answer says what failed.
            if (f == ProfileFormat.JFR) {
                log.debug("The JFR recording of profile {} could not be read", p.id(), e);
                return Replies.error(answer, 404, "Profile '" + p.id() + "' has no JFR recording any more", null);
            }
            log.warn("Profile {} could not be encoded as {}", p.id(), f.id(), e);
            return Replies.error(answer, 503, "Profile '" + p.id() + "' could not be encoded as " + f.id()
                    + "; the application's log says why", null);
        }
    }

    /** {@code json, text, collapsed, html, pprof or jfr}: every format, so the message stays true when one is added. */
    private static String formatNames() {
        List<String> names = ProfileFormat.served().stream().map(ProfileFormat::id).toList();
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /**
     * Starts an on-demand profile: {@code duration} from a JSON body or the query string. Actuator maps a write
     * operation with parameters only for a JSON {@code Content-Type}; {@link #startWithDefaults()} takes the rest.
     */
    @WriteOperation(produces = {V3, V2, "application/json", "text/plain", "text/html"})
    public WebEndpointResponse<?> start(@Nullable String duration, @Nullable ResponseFormat answer) {
        Duration d = profiler.options().getDuration();
        if (duration != null && !duration.isBlank()) {
            try {
                d = DurationStyle.detectAndParse(duration.trim(), ChronoUnit.SECONDS);
            } catch (IllegalArgumentException e) {
                return Replies.error(answer, 400, "Invalid duration '" + duration + "': use e.g. 30s, 2m, PT30S or a "
                        + "number of seconds", null);
            }
            if (d.compareTo(CpuProfilerOptions.MIN_DURATION) < 0 || d.compareTo(CpuProfilerOptions.MAX_DURATION) > 0) {
                return Replies.error(answer, 400, "Invalid duration '" + duration + "': must be " + DURATIONS, null);
            }
        }
        try {
            return Replies.session(answer, CpuProfilerStatus.Session.of(profiler.startOnDemand(d)));
        } catch (SessionAlreadyRunningException e) {
            return Replies.error(answer, 429, "A profiling session is already running; try again when it ends",
                    CpuProfilerStatus.Session.of(e.running()));
        } catch (SessionStartException e) {
            // Nothing can record (no engine works here): retrying later would not help, so no Retry-After. The
            // reason is the core's own words: why each engine refused.
            return Replies.error(answer, 503, "The profile could not start: " + e.getMessage(), null);
        } catch (RuntimeException e) {
            log.warn("An on-demand profile could not start", e);
            return Replies.error(answer, 503, "The profile could not start; the application's log says why", null);
        }
    }

    /**
     * The bare POST ({@code curl -X POST}: no body, no {@code Content-Type}), which Actuator maps only to an operation
     * without parameters; {@link CpuProfilerBarePostAdvisor} hands it the query string and {@code Accept} header.
     */
    @WriteOperation(produces = {V3, V2, "application/json", "text/plain", "text/html"})
    public WebEndpointResponse<?> startWithDefaults() {
        return start(null, ResponseFormat.JSON);
    }

    /** {@code 1s}, {@code 1h}: whole hours, minutes or seconds as properties write them. */
    private static String words(Duration d) {
        long s = d.toSeconds();
        return s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
    }
}
