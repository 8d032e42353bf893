package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.InvalidOptionException;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionAlreadyRunningException;
import dev.cpuprofiler.SessionStartException;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ErrorDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.OnDemandDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.SessionDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.StatusDescriptor;
import dev.cpuprofiler.autoconfigure.export.ProfileExporter;
import dev.cpuprofiler.autoconfigure.page.StatusFormat;
import dev.cpuprofiler.autoconfigure.page.StatusPage;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.format.ProfileView.Compare;
import dev.cpuprofiler.format.RecordingFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
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
import org.springframework.core.io.InputStreamResource;
import org.springframework.util.MimeType;

/**
 * {@code /actuator/cpuprofiler}, within Actuator's operation model as Boot's own endpoints are: the status and the
 * latest profile ({@code GET}; the {@link StatusPage} for a browser, by {@link StatusFormat}), one profile
 * ({@code GET /{id}?format=&lookback=&group=&thread=&compare=}, {@code latest} for the newest; {@link Compare#asked}),
 * and an on-demand profile
 * ({@code POST}, optional {@code duration}), which needs {@code management.endpoint.cpuprofiler.access=unrestricted}.
 * Every answer names its content type; a refusal is an {@link ErrorDescriptor} that says why, in JSON.
 */
@WebEndpoint(id = CpuProfilerEndpoint.ID, defaultAccess = Access.READ_ONLY)
public class CpuProfilerEndpoint {

    public static final String ID = "cpuprofiler";

    private static final Logger log = LoggerFactory.getLogger(CpuProfilerEndpoint.class);
    // An operation's produces is what a client may accept to reach it: the types it answers in, and for the start text
    // and a page too, so that its JSON (a refusal above all) reaches a browser or a terminal rather than a 406.
    private static final String V3 = "application/vnd.spring-boot.actuator.v3+json";
    private static final String V2 = "application/vnd.spring-boot.actuator.v2+json";
    private static final String JSON = "application/json";

    /** The status's view of the latest profile: with its look-back part, frames below 0.5% folded, to stay small. */
    static final ProfileView STATUS_VIEW = new ProfileView(LookbackView.INCLUDE, 0.5);

    private final CpuProfiler profiler;
    private final Supplier<@Nullable ProfileExporter> exporter;
    private final BooleanSupplier writesAllowed;
    private final ProfileRenders renders;

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

    /** The page or the JSON, as the {@code Accept} header asks ({@code accepted}) or {@code ?format=html|json}. */
    @ReadOperation(producesFrom = StatusFormat.class)
    public WebEndpointResponse<?> statusOrPage(@Nullable String format, @Nullable StatusFormat accepted) {
        StatusFormat f = blank(format) ? (accepted == null ? StatusFormat.V3 : accepted)
                : format.trim().equalsIgnoreCase("html") ? StatusFormat.HTML
                : format.trim().equalsIgnoreCase("json") ? StatusFormat.JSON : null;
        return f == null ? ErrorDescriptor.response(400, "Unknown format '" + format + "': use html or json (a "
                + "profile's other formats are under /{id}, e.g. latest?format=text)", null)
                : f == StatusFormat.HTML ? StatusPage.HTML : new WebEndpointResponse<>(status(), f);
    }

    /** Kept with the other renders, so built once per profile rather than on each poll; aside while they are busy. */
    private @Nullable String latestView(@Nullable Profile latest) {
        try {
            Optional<byte[]> kept = latest == null ? Optional.empty()
                    : renders.bytes(latest, ProfileFormat.JSON, STATUS_VIEW, profiler.profiles());
            return latest == null ? null : new String(kept.isPresent() ? kept.get()
                    : ProfileFormat.JSON.bytes(latest, STATUS_VIEW), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * One profile in one of {@link ProfileFormat#served()}, compared as {@code compare} asks
     * ({@link Compare#asked}), or the status page's script or style.
     */
    @ReadOperation(produces = {V3, V2, JSON, "text/plain", "text/html", "application/octet-stream"})
    public WebEndpointResponse<?> profile(@Selector String id, @Nullable String format, @Nullable String lookback,
            @Nullable String group, @Nullable String thread, @Nullable String compare) {
        WebEndpointResponse<String> pageFile = StatusPage.scriptOrStyle(id);
        if (pageFile != null) {
            return pageFile;
        }
        ProfileQuery.Parsed parsed = ProfileQuery.parse(format, lookback, group, thread, compare);
        if (parsed.query() == null) {
            return ErrorDescriptor.response(400, parsed.refusal(), null);
        }
        ProfileFormat f = parsed.query().format();
        Profile p = profiler.profile(id).orElse(null);
        if (p == null) {
            return ErrorDescriptor.response(404, "No profile '" + id + "'" + (profiler.profiles().isEmpty()
                    ? ": none recorded yet" : ""), null);
        }
        ProfileQuery.Shown shown = parsed.query().view(p, profiler::profile);
        if (shown.missing() != null) {
            return ErrorDescriptor.response(404, shown.missing(), null);
        }
        MimeType type = MimeType.valueOf(f.mediaType());
        try {
            if (f == ProfileFormat.JFR) {
                // Opened now, streamed later (the store may delete it with its profile); never through a link.
                SeekableByteChannel recording = RecordingFile.open(p.recording().jfrFile());
                return new WebEndpointResponse<>(new InputStreamResource(Channels.newInputStream(recording)) {
                    @Override
                    public long contentLength() throws IOException {
                        return recording.size();
                    }
                }, 200, type);
            }
            byte[] bytes = renders.bytes(p, f, shown.view(), profiler.profiles()).orElse(null);
            // Text as text; JSON and files as bytes, which no encoder would quote as a string.
            return bytes == null ? ErrorDescriptor.response(503, "Profile '" + p.id() + "' cannot be rendered now: "
                    + "other renders are under way; try again in a second", null)
                    : new WebEndpointResponse<>(f.mediaType().startsWith("text/") ? new String(bytes,
                            StandardCharsets.UTF_8) : bytes, 200, type);
        } catch (IOException | RuntimeException | LinkageError e) {
            // E.g. protobuf-java missing on the application's class path, or the recording gone: this answer fails.
            // The exception (a path, anything) goes to the log, once; the answer says what failed.
            if (f == ProfileFormat.JFR) {
                log.debug("The JFR recording of profile {} could not be read", p.id(), e);
                return ErrorDescriptor.response(404, "Profile '" + p.id() + "' has no JFR recording any more", null);
            }
            log.warn("Profile {} could not be encoded as {}", p.id(), f.id(), e);
            return ErrorDescriptor.response(503, "Profile '" + p.id() + "' could not be encoded as " + f.id()
                    + "; the application's log says why", null);
        }
    }

    /**
     * Starts an on-demand profile: {@code duration} from a JSON body or the query string. Actuator maps a write
     * operation with parameters only for a JSON {@code Content-Type}; {@link #startWithDefaults()} takes the rest.
     */
    @WriteOperation(produces = {V3, V2, JSON, "text/plain", "text/html"})
    public WebEndpointResponse<?> start(@Nullable String duration) {
        Duration d = profiler.options().getDuration();
        if (!blank(duration)) {
            try {
                d = DurationStyle.detectAndParse(duration.trim(), ChronoUnit.SECONDS);
            } catch (IllegalArgumentException e) {
                return ErrorDescriptor.response(400, "Invalid duration '" + duration + "': use e.g. 30s, 2m, PT30S "
                        + "or a number of seconds", null);
            }
        }
        try {
            return new WebEndpointResponse<>(new SessionDescriptor(CpuProfilerStatus.Session.of(
                    profiler.startOnDemand(d))), 200, MimeType.valueOf(JSON));
        } catch (InvalidOptionException e) {
            // Out of the range the core allows an on-demand profile: its rule, in the words properties use.
            return ErrorDescriptor.response(400, "Invalid duration '" + duration + "': " + e.allowed(), null);
        } catch (SessionAlreadyRunningException e) {
            return ErrorDescriptor.response(429, "A profiling session is already running; try again when it ends",
                    CpuProfilerStatus.Session.of(e.running()));
        } catch (SessionStartException e) {
            // Nothing can record (no engine works here): the reason is the core's own words, why each engine refused.
            return ErrorDescriptor.response(503, "The profile could not start: " + e.getMessage(), null);
        } catch (RuntimeException e) {
            log.warn("An on-demand profile could not start", e);
            return ErrorDescriptor.response(503, "The profile could not start; the application's log says why", null);
        }
    }

    /**
     * The bare POST ({@code curl -X POST}: no body, no {@code Content-Type}), which Actuator maps only to an operation
     * without parameters; {@link CpuProfilerBarePostAdvisor} hands it the query string's {@code duration}.
     */
    @WriteOperation(produces = {V3, V2, JSON, "text/plain", "text/html"})
    public WebEndpointResponse<?> startWithDefaults() {
        return start(null);
    }

    private static boolean blank(@Nullable String s) {
        return s == null || s.isBlank();
    }
}
