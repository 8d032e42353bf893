package dev.cpuprofiler.autoconfigure.security;

import java.util.function.Predicate;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * WebFlux's part of {@link PageCsrfToken}: on a request that asks for the token, after Spring Security's filters
 * (which put the token's {@code Mono} in the exchange), the token is resolved before the handler runs, as Spring
 * Security's own documentation does for single-page applications: a new token is then saved, and its session or
 * cookie written, before the answer commits (resolved at commit instead, a new session's cookie named an id the token
 * repository had already changed). Only on the endpoint's paths: asked anywhere else, it makes no token, so no session
 * or cookie, and the application's answers are as without the starter.
 */
public class PageCsrfTokenWebFilter implements WebFilter, Ordered {

    private final Predicate<String> endpointPaths;

    /** @param endpointPaths whether a path (within the application) is the endpoint's */
    public PageCsrfTokenWebFilter(Predicate<String> endpointPaths) {
        this.endpointPaths = endpointPaths;
    }

    @Override
    public int getOrder() {
        return 0; // after Spring Security's WebFilterChainProxy (-100)
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        Mono<?> token = exchange.getRequest().getHeaders().getFirst(PageCsrfToken.ASK) == null
                || !endpointPaths.test(exchange.getRequest().getPath().pathWithinApplication().value()) ? null
                : exchange.getAttribute(PageCsrfToken.REACTIVE_ATTRIBUTE);
        return token == null ? chain.filter(exchange) : token
                .doOnNext(t -> PageCsrfToken.copy(t, exchange.getResponse().getHeaders())).onErrorComplete()
                .then(chain.filter(exchange));
    }
}
