package dev.cpuprofiler.internal.lookback;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * The period JFR really samples an event at. When several recordings enable the same periodic event, JFR applies
 * the finest period to all of them (checked on JDK 17 and 25: next to a 10 ms recording a 20 ms stream receives
 * ~95 samples/s of a busy thread, and a 50 ms recording next to a 10 ms one gets ~98/s). So a user's own recording
 * with {@code profile.jfc} (10 ms) makes our 20 ms samples come every 10 ms; weighing them as 20 ms would double
 * the look-back's share. Reading the running recordings' settings tells the true period.
 */
final class JfrEffectivePeriod {

    private static final Pattern TIMESPAN = Pattern.compile("\\s*(\\d+)\\s*(ns|us|ms|s|m|min|h|d)\\s*");

    private final String event;

    JfrEffectivePeriod(String event) {
        this.event = event;
    }

    /** The finest {@code period} of {@link #event} among running recordings, never coarser than {@code ours}. */
    Duration of(Duration ours) {
        Duration finest = ours;
        for (Recording recording : FlightRecorder.getFlightRecorder().getRecordings()) {
            if (recording.getState() == RecordingState.RUNNING) {
                Optional<Duration> period = periodIn(recording.getSettings(), event);
                if (period.isPresent() && period.get().compareTo(finest) < 0) {
                    finest = period.get();
                }
            }
        }
        return finest;
    }

    /** The event's period in a recording's settings, if it is enabled with a fixed one. */
    static Optional<Duration> periodIn(Map<String, String> settings, String event) {
        if (!"true".equals(settings.get(event + "#enabled"))) {
            return Optional.empty();
        }
        String value = settings.get(event + "#period");
        return value == null ? Optional.empty() : parse(value);
    }

    /** {@code 20 ms}, {@code 20000000 ns}, {@code 1 s} ...; empty for {@code everyChunk} and the like. */
    static Optional<Duration> parse(String timespan) {
        Matcher m = TIMESPAN.matcher(timespan);
        if (!m.matches()) {
            return Optional.empty();
        }
        long amount = Long.parseLong(m.group(1));
        ChronoUnit unit = switch (m.group(2)) {
            case "ns" -> ChronoUnit.NANOS;
            case "us" -> ChronoUnit.MICROS;
            case "ms" -> ChronoUnit.MILLIS;
            case "s" -> ChronoUnit.SECONDS;
            case "m", "min" -> ChronoUnit.MINUTES;
            case "h" -> ChronoUnit.HOURS;
            default -> ChronoUnit.DAYS;
        };
        Duration period = Duration.of(amount, unit);
        return period.isZero() ? Optional.empty() : Optional.of(period);
    }
}
