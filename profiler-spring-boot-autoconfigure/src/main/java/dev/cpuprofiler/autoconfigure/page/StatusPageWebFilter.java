package dev.cpuprofiler.autoconfigure.page;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * WebFlux's {@link StatusPageFilter}: the page's headers on its paths, and the CSRF token when the page asks, resolved
 * before the handler runs as Spring Security's documentation does for single-page applications (a new token is then
 * saved, its session or cookie written, before the answer commits). After Spring Security's
 * {@code WebFilterChainProxy} (order -100), which puts the token's {@code Mono} in the exchange.
 */
public class StatusPageWebFilter implements WebFilter, Ordered {

    private final StatusPageHeaders page;

    public StatusPageWebFilter(StatusPageHeaders page) {
        this.page = page;
    }

    @Override
    public int getOrder() {
        return 0;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!page.isPage(StatusPageHeaders.decoded(exchange.getRequest().getPath().pathWithinApplication()))) {
            return chain.filter(exchange);
        }
        HttpHeaders headers = exchange.getResponse().getHeaders();
        StatusPageHeaders.HEADERS.forEach(headers::set);
        Mono<?> token = exchange.getRequest().getHeaders().getFirst(PageCsrfToken.ASK) == null ? null
                : exchange.getAttribute(PageCsrfToken.REACTIVE_ATTRIBUTE);
        return token == null ? chain.filter(exchange)
                : token.doOnNext(t -> PageCsrfToken.copy(t, headers::set)).onErrorComplete().then(chain.filter(exchange));
    }
}
