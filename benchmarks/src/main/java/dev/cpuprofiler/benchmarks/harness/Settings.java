package dev.cpuprofiler.benchmarks.harness;

/**
 * Durations of one run. {@code full} is designed for about 20 minutes on a 2-CPU machine, {@code quick} for about 6
 * (quick validates the harness; its overhead figures are too short to mean much). {@code repeats}: measurements per
 * overhead JVM (sessions per session JVM).
 */
record Settings(String mode, int jmhWarmups, int jmhIterations, int jmhSeconds, int repeats, double warmWrk,
        double measureCpu, double measureWrk, int wrkConnections, int attempts, double idleSettle,
        double idleMeasure, double fidelityPhase, double fidelitySkip, double attributionSeconds, int attributionRuns,
        int shortDetections, boolean defaultDetection, double budgetMinutes) {

    static Settings full() {
        return new Settings("full", 2, 3, 1, 3, 30, 3, 4, 16, 3, 20, 45, 12, 2, 8, 2, 2, true, 45);
    }

    static Settings quick() {
        return new Settings("quick", 1, 1, 1, 1, 8, 2, 3, 16, 1, 10, 15, 5, 1, 4, 1, 1, false, 15);
    }
}
