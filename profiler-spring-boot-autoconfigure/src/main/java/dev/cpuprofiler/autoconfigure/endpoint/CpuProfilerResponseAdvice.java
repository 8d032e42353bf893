package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
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
 * The endpoint's response headers with Spring MVC. Actuator's {@code WebEndpointResponse} carries a status, a body and
 * a content type but no headers, so they are set here, just before the answer is written:
 * <ul>
 * <li>{@code Retry-After} on the endpoint's 429: whole seconds until the running session's planned end, at least 1,
 * read from the profiler at that moment (should the session end in between, the client comes back in a second);</li>
 * <li>{@code Content-Disposition: attachment} on a file answer ({@link ProfileDownload}: pprof, jfr);</li>
 * <li>the status page's {@code Content-Security-Policy} and its other headers ({@link StatusPageHeaders}), on the
 * answers a parameter of their content type marks as the page's.</li>
 * </ul>
 * One advice, not one per header: Spring MVC calls every response-body advice on every answer the application
 * writes, and each check here is a field or type test that the application's own answers fail at once.
 * <p>
 * A {@code @ControllerAdvice} because that is how Spring MVC finds response-body advice, also from a management
 * server on its own port (whose Spring MVC looks for advice in the parent context too). Its dependencies are looked up
 * lazily, so an application that component-scans this package still starts.
 */
@ControllerAdvice
public class CpuProfilerResponseAdvice implements ResponseBodyAdvice<Object> {

    private final ObjectProvider<CpuProfiler> profiler;
    private final EndpointPath endpointPath;

    public CpuProfilerResponseAdvice(ObjectProvider<CpuProfiler> profiler,
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
        if (body instanceof ProfileDownload download) {
            response.getHeaders().set(HttpHeaders.CONTENT_DISPOSITION, download.contentDisposition());
        } else if (selectedContentType.getParameter(StatusPage.PAGE_PARAMETER) != null) {
            // Set here, so that the converter writes with the type as it ends up, the marker removed.
            response.getHeaders().setContentType(selectedContentType);
            StatusPageHeaders.apply(response.getHeaders());
        } else if (response instanceof ServletServerHttpResponse servletResponse
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
