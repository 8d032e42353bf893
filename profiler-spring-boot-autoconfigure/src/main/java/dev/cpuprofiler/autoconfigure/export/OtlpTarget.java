package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * OTLP/HTTP profiles (experimental, like the signal itself): {@code POST {endpoint}/v1development/profiles} with a
 * binary protobuf {@code ExportProfilesServiceRequest} written by {@link ProfileFormat#otlp}.
 */
public final class OtlpTarget implements ExportTarget {

    static final String PATH = "/v1development/profiles";

    private final URI uri;
    private final ProfileFormat format;
    private final Map<String, String> headers;
    private final Duration timeout;

    /** @param endpoint the collector's base URL (checked: absolute http(s), no trailing slash) */
    public OtlpTarget(URI endpoint, String serviceName, Map<String, String> resourceAttributes,
            Map<String, String> headers, Duration timeout) {
        this.uri = URI.create(endpoint + PATH);
        this.format = ProfileFormat.otlp(serviceName, resourceAttributes);
        this.headers = Map.copyOf(headers);
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    @Override
    public String id() {
        return "otlp";
    }

    @Override
    public Optional<String> unencryptedCredentials() {
        return UnencryptedCredentials.of(uri, headers.keySet());
    }

    @Override
    public HttpRequest request(Profile profile) throws UnsendableProfileException {
        byte[] body;
        try {
            body = format.bytes(profile, ProfileView.FULL);
        } catch (IOException | RuntimeException e) {
            throw new UnsendableProfileException("cannot encode " + profile.id() + " for OTLP: " + e, e);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", format.mediaType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        return request.build();
    }
}
