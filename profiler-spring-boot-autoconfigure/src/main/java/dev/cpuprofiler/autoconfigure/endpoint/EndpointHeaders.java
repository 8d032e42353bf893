package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.util.MimeType;

/**
 * The headers a {@code WebEndpointResponse} cannot carry (it has a status, a body and a content type), decided once
 * for Spring MVC and WebFlux just before one of the endpoint's answers ({@link EndpointPaths}) is written. A content type the endpoint marked (as it preset it: a
 * client's {@code Accept} never reaches here with a marker, see the web parts) loses the marker: the
 * status page's files ({@link StatusPage#PAGE_PARAMETER}) get the fixed {@code Content-Security-Policy} and no type
 * guessing, caching or referrer; a download ({@link ProfileDownload#FILE_PARAMETER}) gets {@code Content-Disposition:
 * attachment} with its name; a busy 503 ({@link Replies#RETRY_AFTER_PARAMETER}) its {@code Retry-After}. The on-demand
 * {@code POST}'s 429 gets {@code Retry-After}, read at that moment.
 */
final class EndpointHeaders {

    private static final List<String> MARKERS = List.of(StatusPage.PAGE_PARAMETER, ProfileDownload.FILE_PARAMETER,
            Replies.RETRY_AFTER_PARAMETER);

    private final ObjectProvider<CpuProfiler> profiler;
    private final EndpointPaths paths;

    EndpointHeaders(ObjectProvider<CpuProfiler> profiler, EndpointPaths paths) {
        this.profiler = profiler;
        this.paths = paths;
    }

    /**
     * @param path the request's path as the endpoint's mapping sees it (in the application or management server)
     * @param headers the answer's, with the content type the endpoint preset (markers are trusted), if any
     */
    void apply(String method, String path, int status, HttpHeaders headers) {
        MediaType type = headers.getContentType();
        String page = type == null ? null : type.getParameter(StatusPage.PAGE_PARAMETER);
        String file = type == null ? null : type.getParameter(ProfileDownload.FILE_PARAMETER);
        String retryAfter = type == null ? null : type.getParameter(Replies.RETRY_AFTER_PARAMETER);
        if (type != null && isMarked(type)) {
            headers.setContentType(withoutMarkers(type));
        }
        if (page != null) {
            headers.set("Content-Security-Policy", StatusPage.POLICY);
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("Referrer-Policy", "no-referrer");
            headers.setCacheControl("no-store");
        }
        if (file != null) {
            headers.setContentDisposition(ContentDisposition.attachment().filename(unquoted(file)).build());
        }
        if (retryAfter != null && !retryAfter.isEmpty() && retryAfter.chars().allMatch(Character::isDigit)) {
            headers.set(HttpHeaders.RETRY_AFTER, retryAfter);
        }
        if (status == 429 && paths.isStart(method, path)) {
            headers.set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds(profiler.getIfUnique())));
        }
    }

    /** Whether the endpoint marked this content type for {@link #apply}. */
    static boolean isMarked(MimeType type) {
        return type.getParameters().keySet().stream().anyMatch(EndpointHeaders::isMarker);
    }

    /** The type without the endpoint's markers (their names in any case), its other parameters kept in order. */
    static MediaType withoutMarkers(MimeType type) {
        Map<String, String> parameters = new LinkedHashMap<>(type.getParameters());
        parameters.keySet().removeIf(EndpointHeaders::isMarker);
        return new MediaType(type.getType(), type.getSubtype(), parameters);
    }

    private static boolean isMarker(String parameter) {
        return MARKERS.stream().anyMatch(parameter::equalsIgnoreCase);
    }

    private static String unquoted(String value) {
        return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                ? value.substring(1, value.length() - 1) : value;
    }

    /** Whole seconds until the running session's planned end, at least 1 (also when it has just ended). */
    static long retryAfterSeconds(@Nullable CpuProfiler profiler) {
        return profiler == null ? 1 : profiler.activeSession().map(running -> {
            Duration left = running.duration().minus(running.elapsed());
            return Math.max(1, left.getSeconds() + (left.getNano() > 0 ? 1 : 0));
        }).orElse(1L);
    }
}
