package dev.cpuprofiler.autoconfigure;

import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * CPU by endpoint with Spring WebFlux, whose server observation starts and stops on the event loop but opens no scope
 * there (with Reactor's context propagation limited or automatic alike), so the observation handler alone never
 * learns which thread serves a request. While a profile records, this filter opens the request's scope around the
 * subscription to the rest of the chain, where a handler that does its work synchronously (an annotated controller
 * returning a value) runs on the calling thread: that thread is known to serve the request for as long. Work a
 * handler moves to other threads ({@code publishOn}, {@code subscribeOn}) is not covered, nor is writing the response
 * after the subscription returned. The request is named when its observation stops, as for Spring MVC.
 */
public class CpuProfilerRequestWebFilter implements WebFilter, Ordered {

    private final CpuProfilerObservationHandler handler;

    public CpuProfilerRequestWebFilter(CpuProfilerObservationHandler handler) {
        this.handler = handler;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 20;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!handler.isRecording()) {
            return chain.filter(exchange);
        }
        ServerRequestObservationContext context = ServerRequestObservationContext.findCurrent(
                exchange.getAttributes()).orElse(null);
        if (context == null) {
            return chain.filter(exchange);
        }
        Mono<Void> rest = chain.filter(exchange);
        return new Mono<>() {
            @Override
            public void subscribe(CoreSubscriber<? super Void> actual) {
                handler.onScopeOpened(context);
                try {
                    rest.subscribe(actual);
                } finally {
                    handler.onScopeClosed(context);
                }
            }
        };
    }
}
