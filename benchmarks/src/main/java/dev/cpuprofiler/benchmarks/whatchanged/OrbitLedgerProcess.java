package dev.cpuprofiler.benchmarks.whatchanged;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link OrbitLedgerApplication} in a JVM of its own on loopback, started as an operator would with the profiler
 * settings the scenario needs; closing it stops it (SIGTERM).
 *
 * <p>Settings beside the scenario's durations: the trigger at 90% of the process's CPU, measured on the process alone
 * ({@code source=process}: other processes on the machine, the load client included, neither make the application
 * look busy nor keep it from being calm), so that no CPU-triggered profile takes the place of the on-demand ones; the
 * endpoint open for {@code POST} ({@code access=unrestricted}).
 */
final class OrbitLedgerProcess implements AutoCloseable {

    private final ChildJvm.Running child;
    private final URI base;
    private final int feature;
    private final boolean virtualThreads;

    private OrbitLedgerProcess(ChildJvm.Running child, URI base, int feature, boolean virtualThreads) {
        this.child = child;
        this.base = base;
        this.feature = feature;
        this.virtualThreads = virtualThreads;
    }

    /**
     * Starts it on the JDK at {@code javaHome} (of feature release {@code feature}: virtual threads need 21 or later)
     * and waits until it serves.
     */
    static OrbitLedgerProcess start(Path javaHome, int feature, boolean virtualThreads,
            WhatChangedScenario.Settings settings) throws IOException, InterruptedException {
        if (virtualThreads && feature < 21) {
            throw new IllegalArgumentException("virtual threads need JDK 21 or later, not " + feature);
        }
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
                "--spring.main.banner-mode=off", "--spring.threads.virtual.enabled=" + virtualThreads,
                "--management.endpoints.web.exposure.include=health,cpuprofiler",
                "--management.endpoint.cpuprofiler.access=unrestricted",
                "--profiler.cpu.source=process", "--profiler.cpu.threshold=90",
                "--profiler.cpu.startup-grace=" + settings.startupGrace().toSeconds() + "s",
                "--profiler.cpu.reference.duration=" + settings.reference().toSeconds() + "s"));
        ChildJvm.Running child = ChildJvm.of(OrbitLedgerApplication.class, args.toArray(String[]::new))
                .on(javaHome).withOptions("-Xms256m", "-Xmx256m", ThreadCpuClock.OPENS).start();
        try {
            String ready = child.awaitLine(OrbitLedgerApplication.READY, Duration.ofSeconds(120));
            int port = Integer.parseInt(ready.substring(OrbitLedgerApplication.READY.length()).trim());
            return new OrbitLedgerProcess(child, URI.create("http://127.0.0.1:" + port), feature, virtualThreads);
        } catch (RuntimeException | InterruptedException e) {
            child.close();
            throw e;
        }
    }

    URI base() {
        return base;
    }

    /** What it printed so far (its log). */
    String output() {
        return child.output();
    }

    /** e.g. {@code JDK 17, platform threads}. */
    String describe() {
        return "JDK " + feature + ", " + (virtualThreads ? "virtual" : "platform") + " threads";
    }

    @Override
    public void close() throws InterruptedException {
        child.close();
    }
}
