package dev.cpuprofiler.autoconfigure.export;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Where each stored profile is pushed: {@code profiler.cpu.export.*}. Nothing is sent unless
 * {@code profiler.cpu.export.pyroscope.url} or {@code profiler.cpu.export.otlp.endpoint} is set. Values are checked
 * when the exporter is built ({@link ExportSettings}), so a bad one fails start-up naming the property.
 */
@ConfigurationProperties(prefix = "profiler.cpu.export")
public class ExportProperties {

    /**
     * How long to wait for the connection to an export target. Must be positive.
     */
    private Duration connectTimeout = Duration.ofSeconds(5);

    /**
     * How long one push may take, from sending the request to the end of the answer. Must be positive.
     */
    private Duration timeout = Duration.ofSeconds(10);

    /**
     * Profiles waiting to be pushed; when full, a new profile is dropped (and counted) rather than wait. Must be
     * between 1 and 1000.
     */
    private int queueCapacity = 16;

    /**
     * Push to Grafana Pyroscope's ingest API.
     */
    @NestedConfigurationProperty
    private final Pyroscope pyroscope = new Pyroscope();

    /**
     * Push over OTLP/HTTP as OpenTelemetry profiles (experimental: the profiles signal is still in development).
     */
    @NestedConfigurationProperty
    private final Otlp otlp = new Otlp();

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public int getQueueCapacity() {
        return queueCapacity;
    }

    public void setQueueCapacity(int queueCapacity) {
        this.queueCapacity = queueCapacity;
    }

    public Pyroscope getPyroscope() {
        return pyroscope;
    }

    public Otlp getOtlp() {
        return otlp;
    }

    /** {@code profiler.cpu.export.pyroscope.*}. */
    public static class Pyroscope {

        /**
         * Pyroscope's base URL, e.g. http://pyroscope:4040; each profile is POSTed to {url}/ingest. Unset: nothing
         * is pushed to Pyroscope.
         */
        private String url;

        /**
         * The application name profiles appear under. Unset: spring.application.name, else "application".
         */
        private String applicationName;

        /**
         * Labels added to every profile (name: letters, digits, underscores; the value without '{', '}', ',' or
         * '='); the profiler adds trigger (cpu, manual) and engine.
         */
        private Map<String, String> labels = new LinkedHashMap<>();

        /**
         * The body sent: pprof (gzipped profile.proto, built from the merged stacks) or jfr (the engine's recording,
         * as ?format=jfr serves it, kept while the profile is retained).
         */
        private String format = "pprof";

        /**
         * User for HTTP Basic authentication (Grafana Cloud: the stack's user id); needs basic-auth-password.
         */
        private String basicAuthUser;

        /**
         * Password for HTTP Basic authentication (Grafana Cloud: an access token).
         */
        private String basicAuthPassword;

        /**
         * Bearer token sent as "Authorization: Bearer ..."; not together with basic authentication.
         */
        private String bearerToken;

        /**
         * Tenant sent as the X-Scope-OrgID header, for a multi-tenant Pyroscope.
         */
        private String tenantId;

        public String getUrl() {
            return url;
        }

        public void setUrl(String url) {
            this.url = url;
        }

        public String getApplicationName() {
            return applicationName;
        }

        public void setApplicationName(String applicationName) {
            this.applicationName = applicationName;
        }

        public Map<String, String> getLabels() {
            return labels;
        }

        public void setLabels(Map<String, String> labels) {
            this.labels = labels;
        }

        public String getFormat() {
            return format;
        }

        public void setFormat(String format) {
            this.format = format;
        }

        public String getBasicAuthUser() {
            return basicAuthUser;
        }

        public void setBasicAuthUser(String basicAuthUser) {
            this.basicAuthUser = basicAuthUser;
        }

        public String getBasicAuthPassword() {
            return basicAuthPassword;
        }

        public void setBasicAuthPassword(String basicAuthPassword) {
            this.basicAuthPassword = basicAuthPassword;
        }

        public String getBearerToken() {
            return bearerToken;
        }

        public void setBearerToken(String bearerToken) {
            this.bearerToken = bearerToken;
        }

        public String getTenantId() {
            return tenantId;
        }

        public void setTenantId(String tenantId) {
            this.tenantId = tenantId;
        }
    }

    /** {@code profiler.cpu.export.otlp.*} (experimental). */
    public static class Otlp {

        /**
         * OTLP/HTTP base URL of a collector that accepts profiles, e.g. http://otel-collector:4318; each profile is
         * POSTed to {endpoint}/v1development/profiles. Experimental. Unset: nothing is pushed over OTLP.
         */
        private String endpoint;

        /**
         * The resource's service.name. Unset: spring.application.name, else "application".
         */
        private String serviceName;

        /**
         * Further resource attributes (e.g. deployment.environment.name) sent with every profile.
         */
        private Map<String, String> resourceAttributes = new LinkedHashMap<>();

        /**
         * HTTP headers sent with every request (e.g. Authorization).
         */
        private Map<String, String> headers = new LinkedHashMap<>();

        public String getEndpoint() {
            return endpoint;
        }

        public void setEndpoint(String endpoint) {
            this.endpoint = endpoint;
        }

        public String getServiceName() {
            return serviceName;
        }

        public void setServiceName(String serviceName) {
            this.serviceName = serviceName;
        }

        public Map<String, String> getResourceAttributes() {
            return resourceAttributes;
        }

        public void setResourceAttributes(Map<String, String> resourceAttributes) {
            this.resourceAttributes = resourceAttributes;
        }

        public Map<String, String> getHeaders() {
            return headers;
        }

        public void setHeaders(Map<String, String> headers) {
            this.headers = headers;
        }
    }
}
