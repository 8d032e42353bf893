package dev.cpuprofiler.autoconfigure.endpoint;

import java.util.Locale;
import java.util.Optional;
import org.springframework.util.MimeType;

/** The renderings {@code GET /actuator/cpuprofiler/{id}?format=} offers. */
enum ProfileFormat {

    JSON("application/json"),
    TEXT("text/plain;charset=UTF-8"),
    COLLAPSED("text/plain;charset=UTF-8"),
    HTML("text/html;charset=UTF-8"),
    /** pprof's profile.proto, gzipped: {@code go tool pprof}, Pyroscope, Grafana. */
    PPROF("application/octet-stream"),
    /** The engine's own JFR recording: JDK Mission Control, {@code jfr print}, IntelliJ. */
    JFR("application/octet-stream");

    private final MimeType mimeType;

    ProfileFormat(String mimeType) {
        this.mimeType = MimeType.valueOf(mimeType);
    }

    MimeType mimeType() {
        return mimeType;
    }

    static Optional<ProfileFormat> parse(String value) {
        if (value == null || value.isBlank()) {
            return Optional.of(JSON);
        }
        try {
            return Optional.of(valueOf(value.trim().toUpperCase(Locale.ROOT)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
