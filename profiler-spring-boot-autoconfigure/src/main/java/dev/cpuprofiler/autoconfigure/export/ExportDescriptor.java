package dev.cpuprofiler.autoconfigure.export;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * Profile export as the endpoint's status shows it: the targets, profiles waiting, and the latest push
 * ({@code target}, {@code result}: success, retry, failure or dropped, {@code at}, the target's {@code httpStatus}
 * and a {@code message} saying why it failed), all null before the first.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ExportDescriptor(List<String> targets, int queued, String target, String profileId, String result,
        Instant at, Integer httpStatus, String message) {

    static ExportDescriptor of(List<String> targets, int queued, ExportStatus last) {
        return last == null ? new ExportDescriptor(targets, queued, null, null, null, null, null, null)
                : new ExportDescriptor(targets, queued, last.target(), last.profileId(), last.result().id(),
                        last.at(), last.httpStatus(), last.message());
    }
}
