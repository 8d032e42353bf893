package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.autoconfigure.security.PageCsrfToken;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.MethodParameter;
import org.springframework.core.Ordered;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.http.server.ServletServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * Spring MVC's part, as {@link CpuProfilerEndpointWebFilter} is WebFlux's: just before one of the endpoint's answers
 * is written, its request, status and headers to {@link EndpointHeaders} (and Spring Security's CSRF token to
 * {@link PageCsrfToken} when the status page asks); and for a {@code POST} whose JSON body
 * Spring MVC cannot read (before Actuator calls the endpoint), 400 with the parser's reason ({@link MalformedBody})
 * instead of a bare one, ahead of Spring MVC's own resolvers. A guest in the application: the advice applies only to
 * Actuator's operation handlers ({@link #ACTUATOR_HANDLERS}) and acts only on the endpoint's paths; the resolver
 * only on the endpoint's {@code POST} as Actuator's handler took it; anything else passes as without the starter. The
 * content type is read as the endpoint preset it, never as negotiated from the client's {@code Accept}, which could
 * carry a marker. A {@code @ControllerAdvice}, which a management server on its own port finds in the parent context
 * too; dependencies are looked up lazily, so component-scanning this package is harmless.
 */
@ControllerAdvice(basePackages = CpuProfilerMvcAdvice.ACTUATOR_HANDLERS)
public class CpuProfilerMvcAdvice implements ResponseBodyAdvice<Object>, HandlerExceptionResolver, Ordered {

    /** The package of Actuator's Spring MVC operation handlers (its package-private {@code OperationHandler}). */
    static final String ACTUATOR_HANDLERS = "org.springframework.boot.webmvc.actuate.endpoint.web";

    private final EndpointPaths paths;
    private final EndpointHeaders headers;

    public CpuProfilerMvcAdvice(ObjectProvider<CpuProfiler> profiler, ObjectProvider<PathMappedEndpoints> endpoints) {
        this.paths = new EndpointPaths(endpoints);
        this.headers = new EndpointHeaders(profiler, paths);
    }

    @Override
    public int getOrder() {
        return -1;
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
            if (path != null && paths.isEndpoint(path.toString())) {
                // The headers hold a content type only when the endpoint preset it: a negotiated one
                // (selectedContentType) is the client's and may carry anything.
                headers.apply(r.getMethod(), path.toString(), servletResponse.getServletResponse().getStatus(),
                        response.getHeaders());
                if (r.getHeader(PageCsrfToken.ASK) != null) {
                    PageCsrfToken.copy(r.getAttribute(PageCsrfToken.SERVLET_ATTRIBUTE), response.getHeaders());
                }
            }
        }
        return body;
    }

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
            @Nullable Object handler, Exception ex) {
        // The pattern of the mapping that took the request, relative to the servlet: "/actuator/cpuprofiler".
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        if (!(ex instanceof HttpMessageNotReadableException) || response.isCommitted()
                || !(handler instanceof HandlerMethod method && isActuators(method.getBeanType()))
                || !paths.isStart(request.getMethod(), pattern)) {
            return null;
        }
        MalformedBody answer = MalformedBody.of(ex, Collections.list(request.getHeaders("Accept")));
        try {
            byte[] body = answer.body();
            response.setStatus(MalformedBody.STATUS);
            response.setContentType(answer.contentType());
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        } catch (IOException e) {
            return null;
        }
        return new ModelAndView();
    }

    /** Whether the handler is one of Actuator's, as the advice's {@code basePackages} decides it. */
    static boolean isActuators(Class<?> handlerType) {
        return handlerType.getName().startsWith(ACTUATOR_HANDLERS + ".");
    }
}
