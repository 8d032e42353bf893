package dev.cpuprofiler.autoconfigure.export;

import java.time.Instant;

/**
 * The latest push outcome, as the endpoint's status shows it.
 *
 * @param target {@code pyroscope} or {@code otlp}
 * @param profileId the profile pushed
 * @param result what became of it
 * @param at when
 * @param httpStatus the target's answer, or null when none came (I/O error, time-out, nothing sent)
 * @param message why it failed or will be retried, or null on success
 */
public record ExportStatus(String target, String profileId, ExportResult result, Instant at, Integer httpStatus,
        String message) {
}
