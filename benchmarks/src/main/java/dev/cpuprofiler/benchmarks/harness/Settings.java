package dev.cpuprofiler.benchmarks.harness;

/**
 * Durations of one run. {@code full} is designed for about 45 to 50 minutes on a 2-CPU machine (the peers section
 * about 20 of them), {@code quick} for about 15 to 19 (quick validates the harness; its overhead figures are too
 * short to mean much). {@code repeats}:
 * measurements per overhead JVM (sessions per session JVM). {@code warmWrk} / {@code warmWrkMax}: the shortest and
 * longest HTTP warm-up per overhead JVM, in seconds; {@code warmCycles}: the most warm-up measurement cycles.
 * {@code soakMinutes}: how long the soak section measures (after {@code soakWarmup} seconds of the same traffic);
 * it is not part of a default run, and its minutes are added to the budget only when it is asked for.
 */
record Settings(String mode, int jmhWarmups, int jmhIterations, int jmhSeconds, int repeats, double warmWrk,
        double warmWrkMax, int warmCycles, double measureCpu, double measureWrk, int wrkConnections, int attempts,
        double idleSettle, double idleMeasure, double fidelityPhase, double fidelitySkip, double attributionSeconds,
        int attributionRuns, int shortDetections, boolean defaultDetection, double budgetMinutes, int soakMinutes,
        double soakWarmup, Peers peers) {

    /**
     * The peers section's durations in seconds: settle before the idle rounds, idle rounds × length, a warm-up pass
     * of load on every app, busy rounds × (warm-up + measurement) per app, the fixed spike, and the longest the
     * starter's spike may run waiting for its CPU-triggered profile.
     */
    record Peers(double settle, int idleRounds, double idleSeconds, double warmPass, int busyRounds, double busyWarm,
            double busySeconds, double spikeSeconds, double oursSpikeMax) {
    }

    static Settings full() {
        return new Settings("full", 2, 3, 1, 3, 30, 120, 4, 3, 4, 16, 3, 20, 45, 12, 2, 8, 2, 2, true, 65, 30, 60,
                new Peers(60, 3, 60, 20, 3, 5, 20, 30, 150));
    }

    /** Warm-up capped lower than full (16 s of wrk, 2 cycles): quick checks that the harness runs, not the JIT. */
    static Settings quick() {
        return new Settings("quick", 1, 1, 1, 1, 8, 16, 2, 2, 3, 16, 1, 10, 15, 5, 1, 4, 1, 1, false, 22, 3, 30,
                new Peers(20, 2, 15, 6, 2, 2, 6, 15, 90));
    }

    /** {@code --repeats=N}: N measurements per overhead JVM, and 2 more minutes of budget per extra one. */
    Settings withRepeats(int n) {
        return new Settings(mode, jmhWarmups, jmhIterations, jmhSeconds, n, warmWrk, warmWrkMax, warmCycles,
                measureCpu, measureWrk, wrkConnections, attempts, idleSettle, idleMeasure, fidelityPhase,
                fidelitySkip, attributionSeconds, attributionRuns, shortDetections, defaultDetection,
                budgetMinutes + 2 * (n - repeats), soakMinutes, soakWarmup, peers);
    }

    /** {@code --soak-minutes=N}. */
    Settings withSoakMinutes(int n) {
        return new Settings(mode, jmhWarmups, jmhIterations, jmhSeconds, repeats, warmWrk, warmWrkMax, warmCycles,
                measureCpu, measureWrk, wrkConnections, attempts, idleSettle, idleMeasure, fidelityPhase,
                fidelitySkip, attributionSeconds, attributionRuns, shortDetections, defaultDetection, budgetMinutes, n,
                soakWarmup, peers);
    }

    /** The budget with the soak in it: its minutes, its warm-up and 5 minutes for start-up and the report. */
    Settings withSoakBudget() {
        return new Settings(mode, jmhWarmups, jmhIterations, jmhSeconds, repeats, warmWrk, warmWrkMax, warmCycles,
                measureCpu, measureWrk, wrkConnections, attempts, idleSettle, idleMeasure, fidelityPhase,
                fidelitySkip, attributionSeconds, attributionRuns, shortDetections, defaultDetection,
                budgetMinutes + soakMinutes + soakWarmup / 60 + 5, soakMinutes, soakWarmup, peers);
    }
}
