package dev.cpuprofiler.internal.core;

/** How the status rounds what it shows: percentages to 0.01 (more would be noise, and costs bytes every poll). */
final class Rounding {

    private Rounding() {
    }

    static double percent(double percent) {
        return Math.round(percent * 100.0) / 100.0;
    }

    static Double percent(Double percent) {
        return percent == null ? null : percent(percent.doubleValue());
    }
}
