package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * OTLP/HTTP profiles (experimental, like the signal itself): {@code POST {endpoint}/v1development/profiles} with a
 * binary protobuf {@code ExportProfilesServiceRequest} built by {@link OtlpProfileEncoder}.
 */
public final class OtlpTarget implements ExportTarget {

    static final String PATH = "/v1development/profiles";

    private final URI uri;
    private final String serviceName;
    private final Map<String, String> resourceAttributes;
    private final Map<String, String> headers;
    private final Duration timeout;

    /** @param endpoint the collector's base URL (checked: absolute http(s), no trailing slash) */
    public OtlpTarget(URI endpoint, String serviceName, Map<String, String> resourceAttributes,
            Map<String, String> headers, Duration timeout) {
        this.uri = URI.create(endpoint + PATH);
        this.serviceName = Objects.requireNonNull(serviceName, "serviceName");
        this.resourceAttributes = Map.copyOf(resourceAttributes);
        this.headers = Map.copyOf(headers);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    public String id() {
        return "otlp";
    }

    @Override
    public HttpRequest request(Profile profile) {
        byte[] body = OtlpProfileEncoder.encode(profile, serviceName, resourceAttributes).toByteArray();
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        return request.build();
    }
}
