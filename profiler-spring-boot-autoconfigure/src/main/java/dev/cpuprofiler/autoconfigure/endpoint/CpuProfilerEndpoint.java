package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.OnDemandDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ProfileDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.SessionDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.StatusDescriptor;
import dev.cpuprofiler.autoconfigure.export.ProfileExporter;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerSettings;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.Range;
import dev.cpuprofiler.SettingText;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.internal.session.PprofEncoder;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.internal.stack.CollapsedStacksRenderer;
import dev.cpuprofiler.internal.stack.FlameGraphRenderer;
import dev.cpuprofiler.internal.stack.StackTreeRenderer;
import dev.cpuprofiler.internal.stack.TextTreeRenderer;
import dev.cpuprofiler.SessionAlreadyRunningException;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
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
    /** An on-demand profile may last what {@code profiler.cpu.duration} allows. */
    private static final Range<Duration> DURATIONS = CpuProfilerSettings.DURATION.range();

    private final CpuProfiler profiler;
    private final PprofEncoder pprof = new PprofEncoder();
    private final Supplier<ProfileExporter> exporter;
    private final BooleanSupplier writesAllowed;
    private final TopMethods topMethods = new TopMethods();
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
        List<Profile> profiles = profiler.profiles();
        topMethods.retain(profiles);
        return CpuProfilerDescriptors.status(s, profiles, latestView(s.latestProfile()), exporter.get(),
                profiler.cpuHistory(), topMethods::of, new OnDemandDescriptor(writesAllowed.getAsBoolean(),
                        profiler.options().getDuration().toString()));
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
    private ProfileDescriptor latestView(Profile latest) {
        if (latest == null) {
            return null;
        }
        LatestView cached = latestView;
        if (cached != null && cached.profile() == latest) {
            return cached.view();
        }
        ProfileDescriptor view = CpuProfilerDescriptors.statusView(latest);
        latestView = new LatestView(latest, view);
        return view;
    }

    private record LatestView(Profile profile, ProfileDescriptor view) {
    }

    /**
     * One profile. Refusals (unknown format or look-back view 400, unknown id 404) come in the format the client's
     * {@code Accept} header asks for ({@code answer}, resolved by Actuator), so that no header turns them into a 406
     * or a 500.
     */
    @ReadOperation(produces = {ACTUATOR_V3_JSON, ACTUATOR_V2_JSON, "application/json", "text/plain", "text/html",
            "application/octet-stream"})
    public WebEndpointResponse<?> profile(@Selector String id, @Nullable String format, @Nullable String lookback,
            @Nullable ResponseFormat answer) {
        Optional<StatusPage.Asset> pageFile = StatusPage.scriptOrStyle(id);
        if (pageFile.isPresent()) {
            return asset(pageFile.get());
        }
        Optional<ProfileFormat> parsed = ProfileFormat.parse(format);
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
        if (parsed.get() == ProfileFormat.JFR && view != LookbackView.INCLUDE) {
            return Replies.error(answer, WebEndpointResponse.STATUS_BAD_REQUEST, "lookback=" + view.id()
                    + " does not apply to format=jfr: the recording is the session's own as the engine wrote it "
                    + "(the look-back part was never in it); leave lookback out, or use another format", null);
        }
        Optional<Profile> profile = profiler.profile(id);
        if (profile.isEmpty()) {
            return Replies.error(answer, WebEndpointResponse.STATUS_NOT_FOUND, "No profile '" + id + "'"
                    + (profiler.profiles().size() == 0 ? ": none recorded yet" : ""), null);
        }
        Profile p = profile.get();
        ProfileFormat f = parsed.get();
        return switch (f) {
            case JSON -> new WebEndpointResponse<>(ProfileDescriptor.of(p, 0, view), WebEndpointResponse.STATUS_OK,
                    f.mimeType());
            case TEXT -> new WebEndpointResponse<>(ProfileTextSummary.of(p, view)
                    + new TextTreeRenderer().renderToString(p.tree(view)), WebEndpointResponse.STATUS_OK,
                    f.mimeType());
            case COLLAPSED -> text(new CollapsedStacksRenderer(), p, view, f);
            case HTML -> text(new FlameGraphRenderer("CPU profile " + p.id() + " (" + p.trigger() + ", "
                    + p.engine() + ", " + p.samples() + " samples" + lookbackTitle(p, view) + ")", 0), p, view, f);
            case PPROF -> pprof(p, view, answer);
            case JFR -> jfr(p, answer);
        };
    }

    private static WebEndpointResponse<String> asset(StatusPage.Asset asset) {
        return new WebEndpointResponse<>(asset.body(), WebEndpointResponse.STATUS_OK, asset.contentType());
    }

    private WebEndpointResponse<?> pprof(Profile p, LookbackView view, @Nullable ResponseFormat answer) {
        byte[] bytes;
        try {
            bytes = pprof.gzipped(p, view);
        } catch (RuntimeException | LinkageError e) {
            // E.g. a protobuf-java too old or missing on the application's class path: this answer fails, nothing else.
            return Replies.error(answer, WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE,
                    "Profile '" + p.id() + "' could not be encoded as pprof: " + e, null);
        }
        return new WebEndpointResponse<>(ProfileDownload.of(bytes, p.id() + ".pb.gz"), WebEndpointResponse.STATUS_OK,
                ProfileFormat.PPROF.mimeType());
    }

    private static WebEndpointResponse<?> jfr(Profile p, @Nullable ResponseFormat answer) {
        if (p.jfrFile() == null) {
            return Replies.error(answer, WebEndpointResponse.STATUS_NOT_FOUND, "Profile '" + p.id()
                    + "' has no JFR recording: its engine (" + p.engine() + ") handed over no file, or it was not "
                    + "kept (larger than retained-size, or its disk down to min-free-disk-space)", null);
        }
        try {
            return new WebEndpointResponse<>(ProfileDownload.open(p.jfrFile(), CpuProfilerDescriptors.downloadName(p)),
                    WebEndpointResponse.STATUS_OK, ProfileFormat.JFR.mimeType());
        } catch (IOException | RuntimeException e) {
            return Replies.error(answer, WebEndpointResponse.STATUS_NOT_FOUND, "Profile '" + p.id()
                    + "' has no JFR recording any more: " + e, null);
        }
    }

    /** {@code json, text, collapsed, html, pprof or jfr}: every format, so the message stays true when one is added. */
    private static String formatNames() {
        List<String> names = Arrays.stream(ProfileFormat.values()).map(f -> f.name().toLowerCase(Locale.ROOT))
                .toList();
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    private static String lookbackTitle(Profile p, LookbackView view) {
        if (p.lookback() == null) {
            return "";
        }
        return switch (view) {
            case INCLUDE -> ", with " + p.lookback().samples() + " look-back samples";
            case EXCLUDE -> ", look-back left out";
            case ONLY -> ", look-back only";
        };
    }

    private static WebEndpointResponse<String> text(StackTreeRenderer renderer, Profile p, LookbackView view,
            ProfileFormat f) {
        return new WebEndpointResponse<>(renderer.renderToString(p.tree(view)), WebEndpointResponse.STATUS_OK,
                f.mimeType());
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
            if (!DURATIONS.contains(d)) {
                return Replies.error(answer, WebEndpointResponse.STATUS_BAD_REQUEST, "Invalid duration '" + duration
                        + "': must be " + DURATIONS.describe(SettingText::duration), null);
            }
        }
        try {
            RunningSession session = profiler.startOnDemand(d);
            return Replies.session(answer, SessionDescriptor.of(session, profiler.clock()));
        } catch (SessionAlreadyRunningException e) {
            // The Retry-After header is added by the web layer (WebEndpointResponse carries no headers).
            return Replies.error(answer, WebEndpointResponse.STATUS_TOO_MANY_REQUESTS,
                    "A profiling session is already running; try again when it ends",
                    SessionDescriptor.of(e.running(), profiler.clock()));
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
