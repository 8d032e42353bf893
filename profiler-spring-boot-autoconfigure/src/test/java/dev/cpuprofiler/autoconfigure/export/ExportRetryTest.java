package dev.cpuprofiler.autoconfigure.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExportRetryTest {

    private static final Instant NOW = Instant.parse("2026-11-23T10:00:00Z");
    private final ExportRetry retry = new ExportRetry(3, Duration.ofSeconds(1), Duration.ofSeconds(30));

    @Test
    void backsOffExponentiallyABoundedNumberOfTimes() {
        assertThat(retry.delay(0, Optional.empty(), NOW)).isEqualTo(Duration.ofSeconds(1));
        assertThat(retry.delay(1, Optional.empty(), NOW)).isEqualTo(Duration.ofSeconds(2));
        assertThat(retry.delay(2, Optional.empty(), NOW)).isEqualTo(Duration.ofSeconds(4));
        assertThat(retry.delay(10, Optional.empty(), NOW)).isEqualTo(Duration.ofSeconds(30));
        assertThat(retry.again(2)).isTrue();
        assertThat(retry.again(3)).isFalse();
    }

    @Test
    void honoursRetryAfterInSecondsOrAsADateCapped() {
        assertThat(retry.delay(0, Optional.of("5"), NOW)).isEqualTo(Duration.ofSeconds(5));
        assertThat(retry.delay(0, Optional.of("3600"), NOW)).isEqualTo(Duration.ofSeconds(30));
        String in7s = DateTimeFormatter.RFC_1123_DATE_TIME.format(NOW.plusSeconds(7).atOffset(ZoneOffset.UTC));
        assertThat(retry.delay(0, Optional.of(in7s), NOW)).isEqualTo(Duration.ofSeconds(7));
        assertThat(retry.delay(1, Optional.of("soon"), NOW)).as("unreadable: the backoff").isEqualTo(
                Duration.ofSeconds(2));
    }

    @Test
    void retriesOnly429AndServerErrors() {
        assertThat(ExportRetry.retryable(302)).as("a redirect is not followed, nor retried").isFalse();
        assertThat(ExportRetry.retryable(307)).isFalse();
        assertThat(ExportRetry.retryable(429)).isTrue();
        assertThat(ExportRetry.retryable(503)).isTrue();
        assertThat(ExportRetry.retryable(500)).isTrue();
        assertThat(ExportRetry.retryable(400)).isFalse();
        assertThat(ExportRetry.retryable(401)).isFalse();
        assertThat(ExportRetry.retryable(404)).isFalse();
    }
}
