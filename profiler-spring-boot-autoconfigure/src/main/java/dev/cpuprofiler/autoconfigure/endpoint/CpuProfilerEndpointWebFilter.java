package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
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
 * Spring WebFlux's hand-over to {@link EndpointHeaders}: just before an answer of the endpoint is committed, its
 * request, status and headers. And, for {@code POST /actuator/cpuprofiler}, a 400 with the parser's reason when the
 * JSON body cannot be read ({@link MalformedBody}: WebFlux reads it before Actuator calls the endpoint, and on its own
 * answers without the reason). Any request outside the endpoint's path passes through untouched.
 */
public class CpuProfilerEndpointWebFilter implements WebFilter, Ordered {

    private final EndpointHeaders headers;

    public CpuProfilerEndpointWebFilter(ObjectProvider<CpuProfiler> profiler,
            ObjectProvider<PathMappedEndpoints> endpoints) {
        this.headers = new EndpointHeaders(profiler, endpoints);
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
        if (!headers.path().isEndpoint(path)) {
            return chain.filter(exchange);
        }
        ServerHttpResponse response = exchange.getResponse();
        response.beforeCommit(() -> {
            HttpStatusCode status = response.getStatusCode();
            headers.apply(method, path, request.getQueryParams().getFirst("format"),
                    status == null ? 200 : status.value(), response.getHeaders());
            return Mono.empty();
        });
        if (!headers.path().isStart(method, path)) {
            return chain.filter(exchange);
        }
        return chain.filter(exchange).onErrorResume(ServerWebInputException.class, e -> e.getCause() != null
                && !response.isCommitted() ? malformedBody(exchange, e) : Mono.error(e));
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
