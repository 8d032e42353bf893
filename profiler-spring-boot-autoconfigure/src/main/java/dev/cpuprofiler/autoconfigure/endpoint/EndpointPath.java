package dev.cpuprofiler.autoconfigure.endpoint;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;

/**
 * The endpoint's path as Actuator maps it (base path and path mapping included), so that the web pieces act on a
 * {@code POST} to the endpoint and never on the application's own requests.
 */
final class EndpointPath {

    private static final EndpointId ENDPOINT_ID = EndpointId.of(CpuProfilerEndpoint.ID);

    private final ObjectProvider<PathMappedEndpoints> endpoints;

    EndpointPath(ObjectProvider<PathMappedEndpoints> endpoints) {
        this.endpoints = endpoints;
    }

    /**
     * @param method the request's HTTP method
     * @param path its path within the application, or the pattern of the mapping that took it
     */
    boolean isStart(String method, @Nullable Object path) {
        if (!"POST".equals(method) || path == null) {
            return false;
        }
        PathMappedEndpoints paths = endpoints.getIfAvailable();
        String endpointPath = paths == null ? null : paths.getPath(ENDPOINT_ID);
        return endpointPath != null && endpointPath.equals(path.toString());
    }

    /** Whether the path is the endpoint's or one of its profiles' (any method). */
    boolean isEndpoint(String path) {
        PathMappedEndpoints paths = endpoints.getIfAvailable();
        String endpointPath = paths == null ? null : paths.getPath(ENDPOINT_ID);
        return endpointPath != null && (path.equals(endpointPath) || path.startsWith(endpointPath + "/"));
    }

    /**
     * The {@code {id}} of a {@code GET} of one profile ({@code latest} included), or null for any other request.
     *
     * @param path the request's path within the application
     */
    @Nullable String profileSelector(String method, String path) {
        if (!"GET".equals(method)) {
            return null;
        }
        PathMappedEndpoints paths = endpoints.getIfAvailable();
        String endpointPath = paths == null ? null : paths.getPath(ENDPOINT_ID);
        if (endpointPath == null || !path.startsWith(endpointPath + "/")) {
            return null;
        }
        String selector = path.substring(endpointPath.length() + 1);
        return selector.isEmpty() || selector.contains("/") ? null : selector;
    }
}
