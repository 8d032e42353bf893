package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ErrorDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ProfileDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.SessionDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.StatusDescriptor;
import dev.cpuprofiler.core.CpuProfiler;
import dev.cpuprofiler.core.CpuProfilerStatus;
import dev.cpuprofiler.lookback.LookbackView;
import dev.cpuprofiler.session.Profile;
import dev.cpuprofiler.session.RunningSession;
import dev.cpuprofiler.stack.CollapsedStacksRenderer;
import dev.cpuprofiler.stack.FlameGraphRenderer;
import dev.cpuprofiler.stack.StackTreeRenderer;
import dev.cpuprofiler.stack.TextTreeRenderer;
import dev.cpuprofiler.trigger.SessionAlreadyRunningException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;
import org.springframework.boot.convert.DurationStyle;

/**
 * {@code /actuator/cpuprofiler}: the monitor's status and the latest profile ({@code GET}), one profile in a
 * chosen format ({@code GET /{id}?format=json|text|collapsed|html}, {@code latest} for the newest; with
 * {@code lookback=include|exclude|only}, the samples from before a CPU-triggered session too, or not, or alone), and an
 * on-demand profile ({@code POST}, optional {@code duration}). Read-only by default: starting a profile over
 * HTTP needs {@code management.endpoint.cpuprofiler.access=unrestricted}.
 */
@WebEndpoint(id = "cpuprofiler", defaultAccess = Access.READ_ONLY)
public class CpuProfilerEndpoint {

    private static final Duration MIN_DURATION = Duration.ofSeconds(1);
    private static final Duration MAX_DURATION = Duration.ofHours(1);

    private final CpuProfiler profiler;
    private volatile LatestView latestView;

    public CpuProfilerEndpoint(CpuProfiler profiler) {
        this.profiler = profiler;
    }

    @ReadOperation
    public StatusDescriptor status() {
        CpuProfilerStatus s = profiler.status();
        return CpuProfilerDescriptors.status(s, profiler.profiles().list(), latestView(s.latestProfile()));
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

    @ReadOperation(produces = {"application/json", "text/plain", "text/html"})
    public WebEndpointResponse<?> profile(@Selector String id, @Nullable String format, @Nullable String lookback) {
        Optional<ProfileFormat> parsed = ProfileFormat.parse(format);
        if (parsed.isEmpty()) {
            return error(WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request",
                    "Unknown format '" + format + "': use json, text, collapsed or html", null);
        }
        LookbackView view = LookbackView.INCLUDE;
        if (lookback != null && !lookback.isBlank()) {
            try {
                view = LookbackView.fromId(lookback);
            } catch (IllegalArgumentException e) {
                return error(WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request",
                        "Unknown lookback '" + lookback + "': use include, exclude or only", null);
            }
        }
        Optional<Profile> profile = profiler.profiles().get(id);
        if (profile.isEmpty()) {
            return error(WebEndpointResponse.STATUS_NOT_FOUND, "Not Found", "No profile '" + id + "'"
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
        };
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

    @WriteOperation
    public WebEndpointResponse<?> start(@Nullable String duration) {
        Duration d = profiler.options().getDuration();
        if (duration != null && !duration.isBlank()) {
            try {
                d = DurationStyle.detectAndParse(duration.trim(), ChronoUnit.SECONDS);
            } catch (IllegalArgumentException e) {
                return error(WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request", "Invalid duration '" + duration
                        + "': use e.g. 30s, 2m, PT30S or a number of seconds", null);
            }
            if (d.compareTo(MIN_DURATION) < 0 || d.compareTo(MAX_DURATION) > 0) {
                return error(WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request", "Invalid duration '" + duration
                        + "': must be between 1s and 1h", null);
            }
        }
        try {
            RunningSession session = profiler.startOnDemand(d);
            return new WebEndpointResponse<>(SessionDescriptor.of(session, profiler.clock()),
                    WebEndpointResponse.STATUS_OK);
        } catch (SessionAlreadyRunningException e) {
            return error(WebEndpointResponse.STATUS_TOO_MANY_REQUESTS, "Too Many Requests",
                    "A profiling session is already running; try again when it ends",
                    SessionDescriptor.of(e.running(), profiler.clock()));
        } catch (RuntimeException e) {
            return error(WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE, "Service Unavailable",
                    "The profile could not start: " + e.getMessage(), null);
        }
    }

    private static WebEndpointResponse<ErrorDescriptor> error(int status, String error, String message,
            SessionDescriptor running) {
        return new WebEndpointResponse<>(new ErrorDescriptor(status, error, message, running), status);
    }
}
