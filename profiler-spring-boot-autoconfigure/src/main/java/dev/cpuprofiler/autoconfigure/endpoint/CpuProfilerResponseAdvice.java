package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.MethodParameter;
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
 * Spring MVC's hand-over to {@link EndpointHeaders}: just before an answer is written, its request, status and
 * headers, the endpoint's path as the handler mapping saw it. One advice for every header: Spring MVC calls every
 * response-body advice on every answer the application writes, and the path test fails the application's own at once.
 * <p>
 * A {@code @ControllerAdvice} because that is how Spring MVC finds response-body advice, also from a management
 * server on its own port (whose Spring MVC looks for advice in the parent context too). Its dependencies are looked up
 * lazily, so an application that component-scans this package still starts.
 */
@ControllerAdvice
public class CpuProfilerResponseAdvice implements ResponseBodyAdvice<Object> {

    private final EndpointHeaders headers;

    public CpuProfilerResponseAdvice(ObjectProvider<CpuProfiler> profiler,
            ObjectProvider<PathMappedEndpoints> endpoints) {
        this.headers = new EndpointHeaders(profiler, endpoints);
    }

    @Override
    public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
        return true;
    }

    @Override
    public @Nullable Object beforeBodyWrite(@Nullable Object body, MethodParameter returnType,
            MediaType selectedContentType, Class<? extends HttpMessageConverter<?>> selectedConverterType,
            ServerHttpRequest request, ServerHttpResponse response) {
        if (request instanceof ServletServerHttpRequest servletRequest
                && response instanceof ServletServerHttpResponse servletResponse) {
            HttpServletRequest r = servletRequest.getServletRequest();
            Object path = r.getAttribute(HandlerMapping.PATH_WITHIN_HANDLER_MAPPING_ATTRIBUTE);
            if (path != null) {
                if (selectedContentType.getParameter(StatusPage.PAGE_PARAMETER) != null) {
                    // Set here, so that the converter writes with the type as it ends up, the marker removed.
                    response.getHeaders().setContentType(selectedContentType);
                }
                headers.apply(r.getMethod(), path.toString(), r.getParameter("format"),
                        servletResponse.getServletResponse().getStatus(), response.getHeaders());
            }
        }
        return body;
    }
}
