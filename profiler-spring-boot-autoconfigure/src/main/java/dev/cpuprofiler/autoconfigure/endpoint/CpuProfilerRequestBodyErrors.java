package dev.cpuprofiler.autoconfigure.endpoint;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.core.Ordered;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers a {@code POST /actuator/cpuprofiler} whose JSON body cannot be read with 400 and the parser's reason (what
 * was wrong, at which line and column), in the format the {@code Accept} header asks for ({@link MalformedBody}).
 * Spring MVC reads the body before Actuator calls the endpoint, and on its own answers a bare 400 without the reason
 * (Spring Boot's error page leaves messages out by default). Runs before Spring MVC's own resolvers (order 0) and
 * handles nothing else.
 */
public class CpuProfilerRequestBodyErrors implements HandlerExceptionResolver, Ordered {

    private final EndpointPath endpointPath;

    public CpuProfilerRequestBodyErrors(ObjectProvider<PathMappedEndpoints> endpoints) {
        this.endpointPath = new EndpointPath(endpoints);
    }

    @Override
    public int getOrder() {
        return -1;
    }

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
            @Nullable Object handler, Exception ex) {
        // The pattern of the mapping that took the request, relative to the servlet: "/actuator/cpuprofiler".
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        if (!(ex instanceof HttpMessageNotReadableException) || response.isCommitted()
                || !endpointPath.isStart(request.getMethod(), pattern)) {
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
}
