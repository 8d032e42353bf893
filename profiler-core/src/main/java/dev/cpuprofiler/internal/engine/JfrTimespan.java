package dev.cpuprofiler.internal.engine;

import java.time.Duration;

/** Writes a duration the way JFR settings ({@code period}, {@code throttle}) accept it. */
public final class JfrTimespan {

    private JfrTimespan() {
    }

    public static String of(Duration duration) {
        long nanos = duration.toNanos();
        if (nanos % 1_000_000 == 0) {
            return nanos / 1_000_000 + "ms";
        }
        if (nanos % 1_000 == 0) {
            return nanos / 1_000 + "us";
        }
        return nanos + "ns";
    }
}
