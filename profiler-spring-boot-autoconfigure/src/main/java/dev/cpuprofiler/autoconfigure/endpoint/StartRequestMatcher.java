package dev.cpuprofiler.autoconfigure.endpoint;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Whether a Spring MVC request is a {@code POST} to the endpoint (its path as Actuator maps it, base path and path
 * mapping included), so that the MVC pieces never touch the application's own requests.
 */
final class StartRequestMatcher {

    private static final EndpointId ENDPOINT_ID = EndpointId.of(CpuProfilerEndpoint.ID);

    private final ObjectProvider<PathMappedEndpoints> endpoints;

    StartRequestMatcher(ObjectProvider<PathMappedEndpoints> endpoints) {
        this.endpoints = endpoints;
    }

    boolean matches(HttpServletRequest request) {
        if (!"POST".equals(request.getMethod())) {
            return false;
        }
        // The pattern of the mapping that took the request, relative to the servlet: "/actuator/cpuprofiler".
        Object pattern = request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        if (pattern == null) {
            return false;
        }
        PathMappedEndpoints paths = endpoints.getIfAvailable();
        String path = paths == null ? null : paths.getPath(ENDPOINT_ID);
        return pattern.equals(path);
    }
}
