package dev.cpuprofiler.autoconfigure.endpoint;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.autoconfigure.export.ExportDescriptor;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.http.HttpStatus;
import org.springframework.util.MimeType;

/**
 * The endpoint's JSON documents, which Actuator writes with its own mapper ({@link OperationResponseBody}: ISO-8601
 * times, whatever the application's mapper does).
 */
public final class CpuProfilerDescriptors {

    private CpuProfilerDescriptors() {
    }

    /**
     * {@code GET /actuator/cpuprofiler}: the status, the latest profile as the JSON format writes it (folded: deeper
     * than about 250 frames, a tree of objects would exceed Jackson's default nesting limit), the export (null when
     * nothing is exported) and whether this endpoint takes a {@code POST}.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record StatusDescriptor(@JsonUnwrapped CpuProfilerStatus status, @JsonRawValue String latestProfile,
            ExportDescriptor export, OnDemandDescriptor onDemand) implements OperationResponseBody {
    }

    /** What the page needs besides: may a POST start a profile, its default length, where a trace id links to. */
    public record OnDemandDescriptor(boolean allowed, Duration defaultDuration, String traceUrlTemplate) {
    }

    /** {@code POST /actuator/cpuprofiler}: the session it started. */
    public record SessionDescriptor(@JsonUnwrapped CpuProfilerStatus.Session session) implements OperationResponseBody {
    }

    /**
     * A refused request: 400 (bad format, view, group or duration), 404 (no such profile, or nothing of it in that
     * format or view), 429 (a session is running: {@code running}, which ends {@code duration} minus
     * {@code elapsed} from now) or 503 (nothing can record, or a render must wait). {@code error} is the status's
     * reason phrase, {@code message} says what to change.
     */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record ErrorDescriptor(int status, String error, String message, CpuProfilerStatus.Session running)
            implements OperationResponseBody {

        /** The refusal, in {@code application/json} whatever the client accepts: no header turns it into a 406. */
        static WebEndpointResponse<ErrorDescriptor> response(int status, String message,
                CpuProfilerStatus.@Nullable Session running) {
            return new WebEndpointResponse<>(new ErrorDescriptor(status, HttpStatus.valueOf(status).getReasonPhrase(),
                    message, running), status, MimeType.valueOf("application/json"));
        }
    }
}
