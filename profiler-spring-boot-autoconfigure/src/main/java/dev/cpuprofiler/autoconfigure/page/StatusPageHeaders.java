package dev.cpuprofiler.autoconfigure.page;

import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.http.server.PathContainer;

/**
 * The status page's headers ({@link #HEADERS}) and the paths that get them, as Actuator maps the endpoint (base path,
 * path mapping, in the application or the management server): the endpoint's own path, where the page is, and its
 * script's and style's below it. Matched as Spring's path patterns match (decoded, without {@code ;} parameters), so
 * that no spelling of a path that reaches the page escapes them. The endpoint's path is looked up at the first request
 * that finds it mapped (so a filter built early resolves no endpoint) and kept: every request of the application passes
 * through the filters, and most need only a string comparison.
 */
public final class StatusPageHeaders {

    /** The page's {@code Content-Security-Policy}: its own script, style and JSON, nothing else, in no frame. */
    public static final String POLICY = "default-src 'none'; style-src 'self'; script-src 'self'; "
            + "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /** What the page's paths answer with, whatever the answer: the policy, no type guessing, referrer or cache. */
    public static final Map<String, String> HEADERS = Map.of("Content-Security-Policy", POLICY,
            "X-Content-Type-Options", "nosniff", "Referrer-Policy", "no-referrer", "Cache-Control", "no-store");

    private final EndpointId endpoint;
    private final ObjectProvider<PathMappedEndpoints> endpoints;
    private final UnaryOperator<String> withinApplication;
    /** The page's path below the application, once Actuator has mapped the endpoint: it never changes after. */
    private volatile String pagePath;

    /**
     * @param endpoint the endpoint that serves the page
     * @param withinApplication an endpoint's path as the application sees it (below a dispatcher servlet's path)
     */
    public StatusPageHeaders(EndpointId endpoint, ObjectProvider<PathMappedEndpoints> endpoints,
            UnaryOperator<String> withinApplication) {
        this.endpoint = endpoint;
        this.endpoints = endpoints;
        this.withinApplication = withinApplication;
    }

    /** Whether the path below the application's context path, decoded, is one of the page's. */
    boolean isPage(String path) {
        String base = pagePath();
        if (base == null) {
            return false;
        }
        return path.equals(base) || path.startsWith(base + "/")
                && StatusPage.SCRIPT_AND_STYLE.containsKey(path.substring(base.length() + 1));
    }

    private String pagePath() {
        String base = pagePath;
        if (base == null) {
            PathMappedEndpoints mapped = endpoints.getIfAvailable();
            String mappedPath = mapped == null ? null : mapped.getPath(endpoint);
            pagePath = base = mappedPath == null ? null : withinApplication.apply(mappedPath);
        }
        return base;
    }

    /**
     * The path as a path pattern sees it: as it came unless it holds an escape or a {@code ;} parameter (the
     * common case, and no allocation), else each segment decoded, its parameters left out.
     */
    static String decoded(PathContainer path) {
        String raw = path.value();
        return raw.indexOf('%') < 0 && raw.indexOf(';') < 0 ? raw : decodedSegments(path);
    }

    /** The path as a path pattern sees it: each segment decoded, its {@code ;} parameters left out. */
    private static String decodedSegments(PathContainer path) {
        return path.elements().stream().map(e -> e instanceof PathContainer.PathSegment s ? s.valueToMatch()
                : e.value()).collect(Collectors.joining());
    }
}
