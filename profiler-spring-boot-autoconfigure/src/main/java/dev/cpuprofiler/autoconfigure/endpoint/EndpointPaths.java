package dev.cpuprofiler.autoconfigure.endpoint;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;

/**
 * Which requests are the endpoint's, as Actuator maps it (base path, path mapping, in the application or the
 * management server): the starter's web parts act on these and pass every other request as without the starter.
 */
public final class EndpointPaths {

    private static final EndpointId ENDPOINT_ID = EndpointId.of(CpuProfilerEndpoint.ID);

    private final ObjectProvider<PathMappedEndpoints> endpoints;

    /** @param endpoints looked up lazily, so that a bean built early or in a parent context is harmless */
    public EndpointPaths(ObjectProvider<PathMappedEndpoints> endpoints) {
        this.endpoints = endpoints;
    }

    /** Whether the path is the endpoint's or one of its profiles' (any method). */
    public boolean isEndpoint(String path) {
        String endpoint = endpointPath();
        return endpoint != null && (path.equals(endpoint) || path.startsWith(endpoint + "/"));
    }

    /** Whether this is the on-demand {@code POST}; {@code path} may be the pattern of the mapping that took it. */
    boolean isStart(String method, @Nullable Object path) {
        String endpoint = endpointPath();
        return "POST".equals(method) && path != null && endpoint != null && endpoint.equals(path.toString());
    }

    private @Nullable String endpointPath() {
        PathMappedEndpoints paths = endpoints.getIfAvailable();
        return paths == null ? null : paths.getPath(ENDPOINT_ID);
    }
}
