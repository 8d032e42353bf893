package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.core.CpuProfiler;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Adds {@code Retry-After} to the endpoint's 429 with Spring MVC: whole seconds until the running session's planned
 * end, at least 1. Actuator's {@code WebEndpointResponse} carries a status, a body and a content type but no headers,
 * so the header is set here, just before the answer is written. It is read from the profiler at that moment: should
 * the session end in between, the client is told to come back in a second. Any other response passes untouched.
 * <p>
 * A {@code @ControllerAdvice} because that is how Spring MVC finds response-body advice, also from a management
 * server on its own port (whose Spring MVC looks for advice in the parent context too). Its dependencies are looked up
 * lazily, so an application that component-scans this package still starts.
 */
@ControllerAdvice
public class CpuProfilerRetryAfterAdvice implements ResponseBodyAdvice<Object> {

    private final ObjectProvider<CpuProfiler> profiler;
    private final EndpointPath endpointPath;

    public CpuProfilerRetryAfterAdvice(ObjectProvider<CpuProfiler> profiler,
            ObjectProvider<PathMappedEndpoints> endpoints) {
        this.profiler = profiler;
        this.endpointPath = new EndpointPath(endpoints);
    }

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public @Nullable Object beforeBodyWrite(@Nullable Object body, MethodParameter returnType,
            MediaType selectedContentType, Class<? extends HttpMessageConverter<?>> selectedConverterType,
            ServerHttpRequest request, ServerHttpResponse response) {
        if (response instanceof ServletServerHttpResponse servletResponse
                && servletResponse.getServletResponse().getStatus() == 429
                && request instanceof ServletServerHttpRequest servletRequest
                && endpointPath.isStart(servletRequest.getServletRequest().getMethod(), servletRequest
                        .getServletRequest().getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE))) {
            response.getHeaders().set(HttpHeaders.RETRY_AFTER,
                    Long.toString(CpuProfilerEndpoint.retryAfterSeconds(profiler.getIfUnique())));
        }
        return body;
    }
}
