package dev.cpuprofiler.internal.lookback;

import java.time.Duration;

/**
 * CPU work in distinctively named methods, each run on a thread of its own for a while. The clock is read between
 * chunks of arithmetic, not in the hot loop: JDK 17's execution sampler drops most samples of a loop that spins
 * on {@code System.nanoTime()}.
 */
final class Workloads {

    private static volatile long blackhole;

    private Workloads() {
    }

    /** The burst that raises the average and is over before the trigger fires. */
    static void lookbackBurstBeforeTheTrigger(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        long x = 1;
        while (System.nanoTime() < end) {
            x += crunch(200_000, x);
        }
        blackhole = x;
    }

    /** What the application does once the session records. */
    static void workDuringTheSession(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        long x = 2;
        while (System.nanoTime() < end) {
            x += crunch(200_000, x);
        }
        blackhole = x;
    }

    /** Work that runs before and after the trigger alike. */
    static void workInBothParts(Duration d) {
        long end = System.nanoTime() + d.toNanos();
        long x = 3;
        while (System.nanoTime() < end) {
            x += crunch(200_000, x);
        }
        blackhole = x;
    }

    static long crunch(long iterations, long seed) {
        long x = seed | 1;
        for (long i = 0; i < iterations; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /** Runs {@code work} on a new thread named {@code name} and waits for it. */
    static void runOn(String name, Runnable work) throws InterruptedException {
        Thread t = new Thread(work, name);
        t.start();
        t.join();
    }

    /** Starts {@code work} on a new daemon thread named {@code name}. */
    static Thread startOn(String name, Runnable work) {
        Thread t = new Thread(work, name);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
