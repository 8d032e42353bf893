package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.Profile;
import java.net.http.HttpRequest;
import java.util.Optional;

/** Somewhere a stored profile is pushed over HTTP: Pyroscope or an OTLP collector. */
public interface ExportTarget {

    /** The meter's {@code target} tag and the status's name: {@code pyroscope} or {@code otlp}. */
    String id();

    /**
     * The request that pushes this profile, sent as is on every attempt. Its {@link HttpRequest#timeout() time-out}
     * bounds the whole attempt, the answer's body included; a redirect is not followed.
     *
     * @throws UnsendableProfileException when this profile cannot be sent here (no body in the chosen format);
     *         not retried
     */
    HttpRequest request(Profile profile) throws UnsendableProfileException;

    /**
     * What credentials this target sends would travel unencrypted, and where (plain http to a host other than this
     * machine), logged at WARN once when the exporter starts; empty when none would. Never the credentials' values.
     */
    default Optional<String> unencryptedCredentials() {
        return Optional.empty();
    }
}
