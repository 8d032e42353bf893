package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * With Spring WebFlux, what Actuator's endpoint model cannot express for {@code POST /actuator/cpuprofiler}: the
 * 429's {@code Retry-After} header (whole seconds to the running session's planned end, at least 1; set just before
 * the answer is committed), and a 400 with the parser's reason when the JSON body cannot be read (WebFlux reads it
 * before Actuator calls the endpoint, and on its own answers without the reason); and for
 * {@code GET /actuator/cpuprofiler/{id}?format=pprof|jfr}, the {@code Content-Disposition} of the file (a WebFilter
 * does not see the body, so the name comes from the path; {@code latest} is resolved as the answer commits); for
 * {@code GET /actuator/cpuprofiler} and the page's {@code status-page.js} and {@code status-page.css}, the status
 * page's {@code Content-Security-Policy} ({@link StatusPageHeaders}). Any other request passes through untouched.
 */
public class CpuProfilerEndpointWebFilter implements WebFilter, Ordered {

    private final ObjectProvider<CpuProfiler> profiler;
    private final EndpointPath endpointPath;

    public CpuProfilerEndpointWebFilter(ObjectProvider<CpuProfiler> profiler,
            ObjectProvider<PathMappedEndpoints> endpoints) {
        this.profiler = profiler;
        this.endpointPath = new EndpointPath(endpoints);
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 10;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String method = request.getMethod().name();
        String path = request.getPath().pathWithinApplication().value();
        String selector = endpointPath.profileSelector(method, path);
        if (endpointPath.isStatus(method, path) || selector != null && StatusPage.scriptOrStyle(selector).isPresent()) {
            // The status page, its script and its style: the page's headers, on the answers their type marks.
            ServerHttpResponse response = exchange.getResponse();
            response.beforeCommit(() -> {
                StatusPageHeaders.apply(response.getHeaders());
                return Mono.empty();
            });
            return chain.filter(exchange);
        }
        String extension = selector == null ? null : fileExtension(request.getQueryParams().getFirst("format"));
        if (extension != null) {
            ServerHttpResponse response = exchange.getResponse();
            response.beforeCommit(() -> {
                HttpStatusCode status = response.getStatusCode();
                String id = profileId(selector);
                if (status != null && status.value() == HttpStatus.OK.value() && id != null) {
                    response.getHeaders().set(HttpHeaders.CONTENT_DISPOSITION,
                            ProfileDownload.attachment(id + extension));
                }
                return Mono.empty();
            });
            return chain.filter(exchange);
        }
        if (!endpointPath.isStart(method, path)) {
            return chain.filter(exchange);
        }
        ServerHttpResponse response = exchange.getResponse();
        response.beforeCommit(() -> {
            HttpStatusCode status = response.getStatusCode();
            if (status != null && status.value() == HttpStatus.TOO_MANY_REQUESTS.value()) {
                response.getHeaders().set(HttpHeaders.RETRY_AFTER,
                        Long.toString(CpuProfilerEndpoint.retryAfterSeconds(profiler.getIfUnique())));
            }
            return Mono.empty();
        });
        return chain.filter(exchange).onErrorResume(ServerWebInputException.class, e -> e.getCause() != null
                && !response.isCommitted() ? malformedBody(exchange, e) : Mono.error(e));
    }

    /** The file name extension of a format served as a file (pprof, jfr), null for the others. */
    private static @Nullable String fileExtension(@Nullable String format) {
        return format == null || format.isBlank() ? null : ProfileFormat.of(format).filter(ProfileFormat::download)
                .map(ProfileFormat::extension).orElse(null);
    }

    private @Nullable String profileId(String selector) {
        if (!CpuProfiler.LATEST.equals(selector)) {
            return selector;
        }
        CpuProfiler p = profiler.getIfUnique();
        return p == null ? null : p.profile(CpuProfiler.LATEST).map(Profile::id).orElse(null);
    }

    private static Mono<Void> malformedBody(ServerWebExchange exchange, ServerWebInputException failure) {
        MalformedBody answer = MalformedBody.of(failure, exchange.getRequest().getHeaders().get(HttpHeaders.ACCEPT));
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.valueOf(MalformedBody.STATUS));
        response.getHeaders().setContentType(MediaType.parseMediaType(answer.contentType()));
        byte[] body = answer.body();
        response.getHeaders().setContentLength(body.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }
}
