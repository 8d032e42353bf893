package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.InvalidOptionException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where each stored profile is pushed: {@code profiler.cpu.export.*}, bound with the profiler's other properties. They
 * configure the transport, which the core knows nothing of, so each is written once here: its default, its check (as
 * it is bound, a bad value failing start-up naming the property) and its description. Nothing is sent unless
 * {@code pyroscope.url} or {@code otlp.endpoint} is set.
 *
 * @param enabled Whether profiles are pushed to the targets set below. False pushes nothing and starts no exporter, the
 *     targets staying configured (a Spring test context sets it unless the test asks for the profiler with
 *     AutoConfigureCpuProfiler).
 * @param connectTimeout How long to wait for the connection to an export target.
 * @param timeout How long one push may take, from sending the request to the end of the answer.
 * @param queueCapacity Profiles waiting to be pushed; when full, a new profile is dropped (and counted) rather than
 *     wait.
 * @param pyroscope Push to Grafana Pyroscope's ingest API.
 * @param otlp Push over OTLP/HTTP as OpenTelemetry profiles (experimental: the profiles signal is still in
 *     development).
 */
public record ExportProperties(@DefaultValue("true") boolean enabled, @DefaultValue("5s") Duration connectTimeout, @DefaultValue("10s") Duration timeout,
        @DefaultValue("16") int queueCapacity, @DefaultValue Pyroscope pyroscope, @DefaultValue Otlp otlp) {

    private static final String PREFIX = "profiler.cpu.export.";
    private static final String HTTP_URL = "an http:// or https:// URL with a host, e.g. http://localhost:4040";

    public ExportProperties {
        check("connect-timeout", connectTimeout, connectTimeout != null && connectTimeout.compareTo(Duration.ZERO) > 0,
                "must be positive, e.g. 5s");
        check("timeout", timeout, timeout != null && timeout.compareTo(Duration.ZERO) > 0,
                "must be positive, e.g. 10s");
        check("queue-capacity", queueCapacity, queueCapacity >= 1 && queueCapacity <= 1000,
                "must be between 1 and 1000");
    }

    /**
     * {@code profiler.cpu.export.pyroscope.*}.
     *
     * @param url Pyroscope's base URL, e.g. http://pyroscope:4040; each profile is POSTed to {url}/ingest. Unset:
     *     nothing is pushed to Pyroscope.
     * @param applicationName The application name profiles appear under. Unset: spring.application.name, else
     *     "application".
     * @param labels Labels added to every profile (name: letters, digits, underscores; the value without '{', '}', ','
     *     or '='); the profiler adds trigger (cpu, saturation, manual, reference) and engine.
     * @param format The body sent: pprof (gzipped profile.proto, built from the merged stacks) or jfr (the engine's
     *     recording, as ?format=jfr serves it, kept while the profile is retained).
     * @param basicAuthUser User for HTTP Basic authentication (Grafana Cloud: the stack's user id); needs
     *     basic-auth-password.
     * @param basicAuthPassword Password for HTTP Basic authentication (Grafana Cloud: an access token).
     * @param bearerToken Bearer token sent as "Authorization: Bearer ..."; not together with basic authentication.
     * @param tenantId Tenant sent as the X-Scope-OrgID header, for a multi-tenant Pyroscope.
     */
    public record Pyroscope(String url, String applicationName, Map<String, String> labels,
            @DefaultValue("pprof") String format, String basicAuthUser, String basicAuthPassword,
            String bearerToken, String tenantId) {

        public Pyroscope {
            url = baseUrl("pyroscope.url", url);
            labels = labels == null ? Map.of() : labels;
            labels.forEach((name, value) -> {
                String property = "pyroscope.labels." + name;
                check(property, value, name.matches("[a-zA-Z_][a-zA-Z0-9_]*")
                        && !name.equals(PyroscopeTarget.TRIGGER_LABEL) && !name.equals(PyroscopeTarget.ENGINE_LABEL),
                        "a label name is letters, digits and underscores, not starting with a digit, and not trigger "
                                + "or engine (the profiler sets those)");
                check(property, value, value != null && value.matches("[^{},=]+"),
                        "a label value is not empty and has no '{', '}', ',' or '='");
            });
            format = format == null ? "" : format.trim().toLowerCase(Locale.ROOT);
            check("pyroscope.format", format, format.equals(PprofBody.FORMAT) || format.equals(JfrBody.FORMAT),
                    "must be one of pprof, jfr");
            boolean basic = hasText(basicAuthUser) || hasText(basicAuthPassword);
            check("pyroscope.bearer-token", "(set)", !basic || !hasText(bearerToken),
                    "set either a bearer token or basic-auth-user and basic-auth-password, not both");
            check("pyroscope." + (hasText(basicAuthUser) ? "basic-auth-password" : "basic-auth-user"), "",
                    !basic || hasText(basicAuthUser) && hasText(basicAuthPassword),
                    "basic authentication needs both basic-auth-user and basic-auth-password");
        }
    }

    /**
     * {@code profiler.cpu.export.otlp.*} (experimental).
     *
     * @param endpoint OTLP/HTTP base URL of a collector that accepts profiles, e.g. http://otel-collector:4318; each
     *     profile is POSTed to {endpoint}/v1development/profiles. Experimental. Unset: nothing is pushed over OTLP.
     * @param serviceName The resource's service.name. Unset: spring.application.name, else "application".
     * @param resourceAttributes Further resource attributes (e.g. deployment.environment.name) sent with every profile.
     * @param headers HTTP headers sent with every request (e.g. Authorization).
     */
    public record Otlp(String endpoint, String serviceName, Map<String, String> resourceAttributes,
            Map<String, String> headers) {

        public Otlp {
            endpoint = baseUrl("otlp.endpoint", endpoint);
            resourceAttributes = resourceAttributes == null ? Map.of() : resourceAttributes;
            headers = headers == null ? Map.of() : headers;
        }
    }

    /** Unset, or an absolute http(s) URL with a host, then without a trailing slash. */
    private static String baseUrl(String property, String value) {
        try {
            URI uri = value == null ? null : new URI(value.trim());
            check(property, value, uri == null || uri.getScheme() != null && uri.getScheme().matches("(?i)https?")
                    && uri.getHost() != null && uri.getQuery() == null && uri.getFragment() == null, HTTP_URL);
            return uri == null ? null : uri.toString().replaceAll("/+$", "");
        } catch (URISyntaxException e) {
            throw new InvalidOptionException(PREFIX + property, value, HTTP_URL);
        }
    }

    static boolean hasText(String s) {
        return s != null && !s.isBlank();
    }

    private static void check(String property, Object value, boolean allowed, String rule) {
        InvalidOptionException.check(PREFIX + property, value, allowed, rule);
    }
}
