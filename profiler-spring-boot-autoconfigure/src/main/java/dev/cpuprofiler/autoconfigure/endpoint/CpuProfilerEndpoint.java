package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.OnDemandDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ExportDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.StatusDescriptor;
import dev.cpuprofiler.autoconfigure.export.ProfileExporter;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.SessionAlreadyRunningException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.MimeType;

/**
 * {@code /actuator/cpuprofiler}: the monitor's status and the latest profile ({@code GET}), one profile in a
 * chosen format ({@code GET /{id}?format=json|text|collapsed|html|pprof|jfr}, {@code latest} for the newest; with
 * {@code lookback=include|exclude|only}, the samples from before a CPU-triggered session too, or not, or alone), and an
 * on-demand profile ({@code POST}, optional {@code duration}). A browser gets the status as a page
 * ({@link StatusPage}, static files whose script draws the JSON status). Read-only by default: starting a profile over HTTP needs
 * {@code management.endpoint.cpuprofiler.access=unrestricted}.
 */
@WebEndpoint(id = CpuProfilerEndpoint.ID, defaultAccess = Access.READ_ONLY)
public class CpuProfilerEndpoint {

    /** The endpoint id, {@code cpuprofiler}. */
    public static final String ID = "cpuprofiler";

    private static final String ACTUATOR_V3_JSON = "application/vnd.spring-boot.actuator.v3+json";
    private static final String ACTUATOR_V2_JSON = "application/vnd.spring-boot.actuator.v2+json";
    /** An on-demand profile may last what {@code profiler.cpu.duration} allows, in the words properties use. */
    private static final String DURATIONS = "between " + words(CpuProfilerOptions.MIN_DURATION) + " and "
            + words(CpuProfilerOptions.MAX_DURATION);

    /** The status's view of the latest profile: with its look-back part, frames below 0.5% folded, to stay small. */
    static final ProfileView STATUS_VIEW = new ProfileView(LookbackView.INCLUDE, 0.5);

    private final CpuProfiler profiler;
    private final Supplier<ProfileExporter> exporter;
    private final BooleanSupplier writesAllowed;
    private volatile LatestView latestView;

    public CpuProfilerEndpoint(CpuProfiler profiler) {
        this(profiler, () -> null);
    }

    /** @param exporter the profile exporter, or a supplier of null when nothing is exported */
    public CpuProfilerEndpoint(CpuProfiler profiler, Supplier<ProfileExporter> exporter) {
        this(profiler, exporter, () -> false);
    }

    /**
     * @param exporter the profile exporter, or a supplier of null when nothing is exported
     * @param writesAllowed whether this endpoint's write operation is reachable (access {@code unrestricted}): the
     *        status page offers its button then, and says how to allow it otherwise
     */
    public CpuProfilerEndpoint(CpuProfiler profiler, Supplier<ProfileExporter> exporter,
            BooleanSupplier writesAllowed) {
        this.profiler = profiler;
        this.exporter = exporter;
        this.writesAllowed = writesAllowed;
    }

    /** The status as JSON clients get it. */
    public StatusDescriptor status() {
        CpuProfilerStatus s = profiler.status();
        return new StatusDescriptor(s, latestView(s.latestProfile()), ExportDescriptor.of(exporter.get()),
                new OnDemandDescriptor(writesAllowed.getAsBoolean(), profiler.options().getDuration()));
    }

    /**
     * {@code GET /actuator/cpuprofiler}: the status page for a browser (an {@code Accept} header that names
     * {@code text/html}, see {@link StatusFormat}) or for {@code ?format=html}; the JSON for every other client, in
     * the type Spring negotiates as before (or {@code application/json} for {@code ?format=json}). Any other
     * {@code format} is a 400 with the reason.
     */
    @ReadOperation(produces = {ACTUATOR_V3_JSON, ACTUATOR_V2_JSON, "application/json", "text/html"})
    public WebEndpointResponse<?> statusOrPage(@Nullable String format, @Nullable StatusFormat accept) {
        boolean html;
        if (format == null || format.isBlank()) {
            html = accept == StatusFormat.HTML;
        } else if (format.trim().equalsIgnoreCase("html")) {
            html = true;
        } else if (format.trim().equalsIgnoreCase("json")) {
            return new WebEndpointResponse<>(status(), WebEndpointResponse.STATUS_OK, MimeType.valueOf(
                    "application/json"));
        } else {
            return Replies.error(accept == StatusFormat.HTML ? ResponseFormat.HTML : ResponseFormat.JSON,
                    WebEndpointResponse.STATUS_BAD_REQUEST, "Unknown format '" + format + "': use html or json "
                            + "(a profile's other formats are under /{id}, e.g. latest?format=text)", null);
        }
        if (!html) {
            return new WebEndpointResponse<>(status(), WebEndpointResponse.STATUS_OK);
        }
        return asset(StatusPage.html());
    }

    /**
     * Profiles never change once stored, so the status's folded view of the latest one (merging its look-back part,
     * pruning, rendering a tree of up to max-tree-nodes) is built once per profile, not on every poll.
     */
    private @Nullable String latestView(@Nullable Profile latest) {
        if (latest == null) {
            return null;
        }
        LatestView cached = latestView;
        if (cached != null && cached.profile() == latest) {
            return cached.json();
        }
        String view;
        try {
            view = new String(ProfileFormat.JSON.bytes(latest, STATUS_VIEW), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        latestView = new LatestView(latest, view);
        return view;
    }

    private record LatestView(Profile profile, String json) {
    }

    /**
     * One profile in one of {@link ProfileFormat#served()}. Refusals (unknown format or look-back view 400, unknown id
     * 404) come in the format the client's {@code Accept} header asks for ({@code answer}, resolved by Actuator), so
     * that no header turns them into a 406 or a 500.
     */
    @ReadOperation(produces = {ACTUATOR_V3_JSON, ACTUATOR_V2_JSON, "application/json", "text/plain", "text/html",
            "application/octet-stream"})
    public WebEndpointResponse<?> profile(@Selector String id, @Nullable String format, @Nullable String lookback,
            @Nullable ResponseFormat answer) {
        Optional<StatusPage.Asset> pageFile = StatusPage.scriptOrStyle(id);
        if (pageFile.isPresent()) {
            return asset(pageFile.get());
        }
        Optional<ProfileFormat> parsed = format == null || format.isBlank() ? Optional.of(ProfileFormat.JSON)
                : ProfileFormat.of(format);
        if (parsed.isEmpty()) {
            return Replies.error(answer, WebEndpointResponse.STATUS_BAD_REQUEST,
                    "Unknown format '" + format + "': use " + formatNames(), null);
        }
        LookbackView view = LookbackView.INCLUDE;
        if (lookback != null && !lookback.isBlank()) {
            try {
                view = LookbackView.fromId(lookback);
            } catch (IllegalArgumentException e) {
                return Replies.error(answer, WebEndpointResponse.STATUS_BAD_REQUEST,
                        "Unknown lookback '" + lookback + "': use include, exclude or only", null);
            }
        }
        ProfileFormat f = parsed.get();
        if (f == ProfileFormat.JFR && view != LookbackView.INCLUDE) {
            return Replies.error(answer, WebEndpointResponse.STATUS_BAD_REQUEST, "lookback=" + view.id()
                    + " does not apply to format=jfr: the recording is the session's own as the engine wrote it "
                    + "(the look-back part was never in it); leave lookback out, or use another format", null);
        }
        Optional<Profile> profile = profiler.profile(id);
        if (profile.isEmpty()) {
            return Replies.error(answer, WebEndpointResponse.STATUS_NOT_FOUND, "No profile '" + id + "'"
                    + (profiler.profiles().isEmpty() ? ": none recorded yet" : ""), null);
        }
        Profile p = profile.get();
        Optional<String> missing = f.missing(p);
        if (missing.isPresent()) {
            return Replies.error(answer, WebEndpointResponse.STATUS_NOT_FOUND, missing.get(), null);
        }
        MimeType type = MimeType.valueOf(f.mediaType());
        try {
            if (f == ProfileFormat.JFR) {
                // Opened now, streamed later: the store may delete the file once the profile is dropped.
                return new WebEndpointResponse<>(ProfileDownload.open(p.jfrFile(), p.id() + f.extension()),
                        WebEndpointResponse.STATUS_OK, type);
            }
            byte[] bytes = f.bytes(p, ProfileView.of(view));
            // Files as downloads, text as text; JSON as bytes, which no JSON encoder would quote as a string.
            Object body = f.download() ? ProfileDownload.of(bytes, p.id() + f.extension())
                    : f.mediaType().startsWith("text/") ? new String(bytes, StandardCharsets.UTF_8) : bytes;
            return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK, type);
        } catch (IOException | RuntimeException | LinkageError e) {
            // E.g. a protobuf-java too old or missing on the application's class path, or the recording gone:
            // this answer fails, nothing else.
            return f == ProfileFormat.JFR ? Replies.error(answer, WebEndpointResponse.STATUS_NOT_FOUND,
                    "Profile '" + p.id() + "' has no JFR recording any more: " + e, null)
                    : Replies.error(answer, WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE, "Profile '" + p.id()
                            + "' could not be encoded as " + f.id() + ": " + e, null);
        }
    }

    private static WebEndpointResponse<String> asset(StatusPage.Asset asset) {
        return new WebEndpointResponse<>(asset.body(), WebEndpointResponse.STATUS_OK, asset.contentType());
    }

    /** {@code json, text, collapsed, html, pprof or jfr}: every format, so the message stays true when one is added. */
    private static String formatNames() {
        List<String> names = ProfileFormat.served().stream().map(ProfileFormat::id).toList();
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /**
     * Starts an on-demand profile: {@code duration} from a JSON body or the query string. Actuator maps a write
     * operation with parameters only for a JSON {@code Content-Type}; {@link #startWithDefaults()} takes the POST
     * without one.
     */
    @WriteOperation(produces = {ACTUATOR_V3_JSON, ACTUATOR_V2_JSON, "application/json", "text/plain", "text/html"})
    public WebEndpointResponse<?> start(@Nullable String duration, @Nullable ResponseFormat answer) {
        Duration d = profiler.options().getDuration();
        if (duration != null && !duration.isBlank()) {
            try {
                d = DurationStyle.detectAndParse(duration.trim(), ChronoUnit.SECONDS);
            } catch (IllegalArgumentException e) {
                return Replies.error(answer, WebEndpointResponse.STATUS_BAD_REQUEST, "Invalid duration '" + duration
                        + "': use e.g. 30s, 2m, PT30S or a number of seconds", null);
            }
            if (d.compareTo(CpuProfilerOptions.MIN_DURATION) < 0 || d.compareTo(CpuProfilerOptions.MAX_DURATION) > 0) {
                return Replies.error(answer, WebEndpointResponse.STATUS_BAD_REQUEST, "Invalid duration '" + duration
                        + "': must be " + DURATIONS, null);
            }
        }
        try {
            RunningSession session = profiler.startOnDemand(d);
            return Replies.session(answer, CpuProfilerStatus.Session.of(session, profiler.clock()));
        } catch (SessionAlreadyRunningException e) {
            // The Retry-After header is added by the web layer (WebEndpointResponse carries no headers).
            return Replies.error(answer, WebEndpointResponse.STATUS_TOO_MANY_REQUESTS,
                    "A profiling session is already running; try again when it ends",
                    CpuProfilerStatus.Session.of(e.running(), profiler.clock()));
        } catch (RuntimeException e) {
            // Nothing can record (no engine works here): retrying later would not help, so no Retry-After.
            return Replies.error(answer, WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE,
                    "The profile could not start: " + e.getMessage(), null);
        }
    }

    /**
     * The bare POST ({@code curl -X POST .../actuator/cpuprofiler}: no body, no {@code Content-Type}): an operation
     * without parameters, which Actuator maps for any request body type. Its answer is JSON;
     * {@link CpuProfilerBarePostAdvisor}, when present, hands it the query string and the {@code Accept} header like
     * {@link #start(String, ResponseFormat)} gets.
     */
    @WriteOperation(produces = {ACTUATOR_V3_JSON, ACTUATOR_V2_JSON, "application/json", "text/plain", "text/html"})
    public WebEndpointResponse<?> startWithDefaults() {
        return start(null, ResponseFormat.JSON);
    }

    /** {@code 1s}, {@code 1h}: whole hours, minutes or seconds as properties write them. */
    private static String words(Duration d) {
        long s = d.toSeconds();
        return s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    /**
     * Whole seconds until the session's planned end, at least 1: the {@code Retry-After} of a 429.
     */
    public static long retryAfterSeconds(RunningSession running, Clock clock) {
        Duration left = Duration.between(clock.instant(), running.startedAt().plus(running.duration()));
        return Math.max(1, left.getSeconds() + (left.getNano() > 0 ? 1 : 0));
    }

    /** The {@code Retry-After} for the profiler's running session now; 1 if it has just ended. */
    static long retryAfterSeconds(@Nullable CpuProfiler profiler) {
        return profiler == null ? 1 : profiler.activeSession()
                .map(s -> retryAfterSeconds(s, profiler.clock())).orElse(1L);
    }
}
