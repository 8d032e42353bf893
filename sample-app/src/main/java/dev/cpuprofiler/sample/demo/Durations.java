package dev.cpuprofiler.sample.demo;

import java.time.Duration;

/** Durations the way the configuration writes them: {@code 10s}, {@code 2m}, {@code 1m30s}. */
final class Durations {

    private Durations() {
    }

    static String human(Duration d) {
        if (d == null) {
            return "-";
        }
        long seconds = d.toSeconds();
        if (seconds == 0) {
            return d.toMillis() + "ms";
        }
        StringBuilder b = new StringBuilder();
        if (seconds >= 3600) {
            b.append(seconds / 3600).append('h');
        }
        if (seconds % 3600 >= 60) {
            b.append(seconds % 3600 / 60).append('m');
        }
        if (seconds % 60 > 0) {
            b.append(seconds % 60).append('s');
        }
        return b.toString();
    }
}
