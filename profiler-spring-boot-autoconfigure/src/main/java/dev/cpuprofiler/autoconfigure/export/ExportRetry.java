package dev.cpuprofiler.autoconfigure.export;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * When to try a push again: 429, 5xx and I/O errors (a target restarting, overloaded or briefly unreachable) are
 * retried a bounded number of times with exponential backoff, or after the target's {@code Retry-After} when it sends
 * one; both capped, so a stuck target cannot hold the queue for long. Any other 4xx is our request's fault: retrying
 * cannot help. Nor can it for a 3xx: redirects are never followed, the configured URL is wrong.
 */
final class ExportRetry {

    private final int maxRetries;
    private final Duration initialBackoff;
    private final Duration maxBackoff;

    ExportRetry(int maxRetries, Duration initialBackoff, Duration maxBackoff) {
        this.maxRetries = maxRetries;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
    }

    static boolean retryable(int httpStatus) {
        return httpStatus == 429 || httpStatus >= 500;
    }

    /** Whether another attempt follows the failed attempt number {@code attempt} (0 for the first). */
    boolean again(int attempt) {
        return attempt < maxRetries;
    }

    /** The wait before the next attempt after attempt number {@code attempt}. */
    Duration delay(int attempt, Optional<String> retryAfter, Instant now) {
        Duration backoff = initialBackoff.multipliedBy(1L << Math.min(attempt, 20));
        Duration wait = retryAfter.flatMap(v -> parse(v, now)).orElse(backoff);
        return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait.isNegative() ? Duration.ZERO : wait;
    }

    /** {@code Retry-After}: delay-seconds or an HTTP date. */
    private static Optional<Duration> parse(String value, Instant now) {
        String v = value.trim();
        try {
            return Optional.of(Duration.ofSeconds(Long.parseLong(v)));
        } catch (NumberFormatException e) {
            try {
                return Optional.of(Duration.between(now,
                        ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant()));
            } catch (DateTimeParseException ignored) {
                return Optional.empty();
            }
        }
    }
}
