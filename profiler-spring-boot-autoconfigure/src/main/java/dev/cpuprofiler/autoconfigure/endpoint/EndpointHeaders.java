package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The headers Actuator's {@code WebEndpointResponse} cannot carry (it has a status, a body and a content type),
 * decided here once for Spring MVC and WebFlux, just before one of the endpoint's answers is written;
 * {@link CpuProfilerResponseAdvice} and {@link CpuProfilerEndpointWebFilter} only hand the answer over:
 * <ul>
 * <li>the status page, its script and its style: the fixed {@code Content-Security-Policy} and headers that keep a
 * browser from guessing types, caching the page or sending its address elsewhere, on the answers whose content type
 * carries {@link StatusPage#PAGE_PARAMETER} (removed here);</li>
 * <li>a 200 of {@code GET {id}?format=} a format served as a file (pprof, jfr): {@code Content-Disposition:
 * attachment} named {@code <id><extension>}, {@code latest} resolved to the profile's id;</li>
 * <li>the on-demand {@code POST}'s 429: {@code Retry-After}, whole seconds to the running session's planned end, at
 * least 1, read at that moment.</li>
 * </ul>
 * Any other answer, the application's own included, passes untouched.
 */
final class EndpointHeaders {

    private final ObjectProvider<CpuProfiler> profiler;
    private final EndpointPath endpointPath;

    EndpointHeaders(ObjectProvider<CpuProfiler> profiler, ObjectProvider<PathMappedEndpoints> endpoints) {
        this.profiler = profiler;
        this.endpointPath = new EndpointPath(endpoints);
    }

    EndpointPath path() {
        return endpointPath;
    }

    /**
     * @param method the request's HTTP method
     * @param path its path as the endpoint's mapping sees it (within the application or management server)
     * @param format its {@code format} query parameter, or null
     * @param status the answer's status
     * @param headers the answer's headers, its content type set
     */
    void apply(String method, String path, @Nullable String format, int status, HttpHeaders headers) {
        MediaType type = headers.getContentType();
        if (type != null && type.getParameter(StatusPage.PAGE_PARAMETER) != null) {
            Map<String, String> parameters = new LinkedHashMap<>(type.getParameters());
            parameters.remove(StatusPage.PAGE_PARAMETER);
            headers.setContentType(new MediaType(type.getType(), type.getSubtype(), parameters));
            headers.set("Content-Security-Policy", StatusPage.POLICY);
            headers.set("X-Content-Type-Options", "nosniff");
            headers.set("Referrer-Policy", "no-referrer");
            headers.setCacheControl("no-store");
            return;
        }
        String selector = endpointPath.profileSelector(method, path);
        if (status == 200 && selector != null && format != null && !format.isBlank()) {
            ProfileFormat f = ProfileFormat.of(format).filter(ProfileFormat::download).orElse(null);
            String id = f == null ? null : profileId(selector);
            if (id != null) {
                headers.set(HttpHeaders.CONTENT_DISPOSITION,
                        ContentDisposition.attachment().filename(id + f.extension()).build().toString());
            }
        } else if (status == 429 && endpointPath.isStart(method, path)) {
            headers.set(HttpHeaders.RETRY_AFTER,
                    Long.toString(CpuProfilerEndpoint.retryAfterSeconds(profiler.getIfUnique())));
        }
    }

    private @Nullable String profileId(String selector) {
        if (!CpuProfiler.LATEST.equals(selector)) {
            return selector;
        }
        CpuProfiler p = profiler.getIfUnique();
        return p == null ? null : p.profile(CpuProfiler.LATEST).map(Profile::id).orElse(null);
    }
}
