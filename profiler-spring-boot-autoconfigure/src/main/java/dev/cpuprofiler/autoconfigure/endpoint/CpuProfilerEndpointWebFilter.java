package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Spring WebFlux's part, as {@link CpuProfilerMvcAdvice} is Spring MVC's: just before one of the endpoint's answers
 * is committed, its request, status and headers to {@link EndpointHeaders}; and for the on-demand {@code POST}, a 400
 * with the parser's reason when WebFlux cannot read the JSON body ({@link MalformedBody}). Any other request passes
 * through untouched. The answer's content type is the endpoint's preset one or one WebFlux negotiated from the
 * client's {@code Accept}, parameters included; so the endpoint's markers are taken out of that header first, and a
 * marker the answer carries is the endpoint's own.
 */
public class CpuProfilerEndpointWebFilter implements WebFilter, Ordered {

    private final EndpointPaths paths;
    private final EndpointHeaders headers;

    public CpuProfilerEndpointWebFilter(ObjectProvider<CpuProfiler> profiler,
            ObjectProvider<PathMappedEndpoints> endpoints) {
        this.paths = new EndpointPaths(endpoints);
        this.headers = new EndpointHeaders(profiler, paths);
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
        if (!paths.isEndpoint(path)) {
            return chain.filter(exchange);
        }
        ServerWebExchange trusted = withoutMarkers(exchange);
        ServerHttpResponse response = trusted.getResponse();
        response.beforeCommit(() -> {
            HttpStatusCode status = response.getStatusCode();
            headers.apply(method, path, status == null ? 200 : status.value(), response.getHeaders());
            return Mono.empty();
        });
        if (!paths.isStart(method, path)) {
            return chain.filter(trusted);
        }
        return chain.filter(trusted).onErrorResume(ServerWebInputException.class, e -> e.getCause() != null
                && !response.isCommitted() ? malformedBody(trusted, e) : Mono.error(e));
    }

    /** The exchange with no marker in its {@code Accept} header; a header WebFlux cannot parse is left for it. */
    private static ServerWebExchange withoutMarkers(ServerWebExchange exchange) {
        List<String> accept = exchange.getRequest().getHeaders().get(HttpHeaders.ACCEPT);
        if (accept == null) {
            return exchange;
        }
        List<MediaType> types;
        try {
            types = MediaType.parseMediaTypes(accept);
        } catch (InvalidMediaTypeException e) {
            return exchange;
        }
        if (types.stream().noneMatch(EndpointHeaders::isMarked)) {
            return exchange;
        }
        String trusted = MediaType.toString(types.stream().map(EndpointHeaders::withoutMarkers).toList());
        return exchange.mutate().request(r -> r.headers(h -> h.set(HttpHeaders.ACCEPT, trusted))).build();
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
