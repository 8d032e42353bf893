package dev.cpuprofiler.autoconfigure.endpoint;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.autoconfigure.export.ExportStatus;
import dev.cpuprofiler.autoconfigure.export.ProfileExporter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * The endpoint's JSON documents: the core's {@link CpuProfilerStatus} as it is, plus what only the Spring side knows
 * (the export, whether this endpoint takes a POST). They implement {@link OperationResponseBody}, so Actuator writes
 * them with its own mapper (ISO-8601 times, whatever the application's mapper does).
 */
public final class CpuProfilerDescriptors {

    private CpuProfilerDescriptors() {
    }

    /**
     * {@code GET /actuator/cpuprofiler}: the status, with the latest profile as the JSON format writes it (folded:
     * a tree deeper than about 250 frames would exceed Jackson's default nesting limit as objects).
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record StatusDescriptor(@JsonUnwrapped CpuProfilerStatus status, @JsonRawValue String latestProfile,
            ExportDescriptor export, OnDemandDescriptor onDemand) implements OperationResponseBody {
    }

    /**
     * Whether this endpoint takes a {@code POST} that starts a profile (access {@code unrestricted}), and the duration
     * one lasts when the request names none ({@code profiler.cpu.duration}): what the status page's button needs.
     */
    public record OnDemandDescriptor(boolean allowed, Duration defaultDuration) {
    }

    /**
     * Profile export, or null when no export target is configured: the targets, profiles waiting, and the latest
     * push ({@code target}, {@code result}: success, retry, failure or dropped, {@code at}, the target's
     * {@code httpStatus} and a {@code message} saying why it failed), all null before the first.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ExportDescriptor(List<String> targets, int queued, String target, String profileId, String result,
            Instant at, Integer httpStatus, String message) {

        static ExportDescriptor of(ProfileExporter exporter) {
            if (exporter == null) {
                return null;
            }
            ExportStatus last = exporter.last().orElse(null);
            return last == null ? new ExportDescriptor(exporter.targets(), exporter.queued(), null, null, null, null,
                    null, null)
                    : new ExportDescriptor(exporter.targets(), exporter.queued(), last.target(), last.profileId(),
                            last.result().id(), last.at(), last.httpStatus(), last.message());
        }
    }

    /** {@code POST /actuator/cpuprofiler}: the session it started. */
    public record SessionDescriptor(@JsonUnwrapped CpuProfilerStatus.Session session) implements OperationResponseBody {
    }

    /**
     * A refused request: 400 (bad format, look-back view, duration or JSON body), 404 (no such profile), 429 (a
     * session is running: {@code running}; the {@code Retry-After} header says when it ends) or 503 (nothing can
     * record). {@code error} is the status's reason phrase, {@code message} says what to change.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ErrorDescriptor(int status, String error, String message, CpuProfilerStatus.Session running)
            implements OperationResponseBody {
    }
}
