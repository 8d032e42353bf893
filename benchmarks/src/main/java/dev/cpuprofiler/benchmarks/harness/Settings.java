package dev.cpuprofiler.benchmarks.harness;

/**
 * Durations of one run. {@code full} is designed for about 20 minutes on a 2-CPU machine, {@code quick} for about 5.
 */
record Settings(String mode, int jmhWarmups, int jmhIterations, int jmhSeconds, int rounds, double warmWrk,
        double warmCpu, double measureCpu, double measureWrk, int wrkConnections, int attempts, double idleSettle,
        double idleMeasure, double fidelityPhase, double fidelitySkip, double attributionSeconds, int attributionRuns,
        int shortDetections, boolean defaultDetection, double budgetMinutes) {

    static Settings full() {
        return new Settings("full", 2, 4, 1, 3, 6, 3, 5, 6, 16, 3, 20, 60, 20, 2, 10, 2, 2, true, 40);
    }

    static Settings quick() {
        return new Settings("quick", 1, 2, 1, 1, 4, 2, 3, 4, 16, 2, 10, 20, 8, 2, 5, 1, 1, false, 15);
    }
}
