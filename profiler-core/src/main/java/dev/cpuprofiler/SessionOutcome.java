package dev.cpuprofiler;


import java.time.Instant;
import java.util.Objects;

/**
 * How and when a session ended.
 *
 * @param status completed or failed
 * @param reason why it failed (or a remark on a completed one); may be null
 * @param endedAt when it ended
 * @param profileId the profile it produced, or null if none
 */
public record SessionOutcome(Status status, String reason, Instant endedAt, String profileId) {

    public SessionOutcome {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(endedAt, "endedAt");
    }

    public static SessionOutcome failed(String reason, Instant endedAt) {
        return new SessionOutcome(Status.FAILED, reason, endedAt, null);
    }

    public boolean failed() {
        return status == Status.FAILED;
    }

    /** How a session ended. */
    public enum Status {
        COMPLETED,
        FAILED
    }
}
