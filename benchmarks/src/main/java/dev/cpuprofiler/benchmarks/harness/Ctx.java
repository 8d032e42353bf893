package dev.cpuprofiler.benchmarks.harness;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** What every section needs: settings, the work directory, JVMs, the report, the time budget. */
final class Ctx {

    final Settings settings;
    final Path work;
    final Jvms jvms = new Jvms();
    final Report report = new Report();
    final int cpus = Runtime.getRuntime().availableProcessors();
    private final long deadline;
    /** Sampler tick cost in µs per CPU source, from JMH (for the monitoring-cost goal). */
    volatile java.util.Map<String, Double> sharedTickMicros = java.util.Map.of();
    /** One thread-tracking tick over 500 threads with the product's back-off, in µs, from JMH; NaN if not run. */
    volatile double sharedTrackingMicros = Double.NaN;
    private String wrk;
    private String wrkMissing;
    private Path agentLibrary;
    private String agentMissing;

    Ctx(Settings settings, Path work) {
        this.settings = settings;
        this.work = work;
        this.deadline = System.nanoTime() + (long) (settings.budgetMinutes() * 60e9);
    }

    double remainingSeconds() {
        return (deadline - System.nanoTime()) / 1e9;
    }

    /** wrk, installed if needed; null with {@link #wrkMissing()} saying why. */
    synchronized String wrk() throws InterruptedException {
        if (wrk == null && wrkMissing == null) {
            StringBuilder why = new StringBuilder();
            wrk = Wrk.ensure(work, why);
            wrkMissing = wrk == null ? why.toString() : null;
        }
        return wrk;
    }

    String wrkMissing() {
        return wrkMissing;
    }

    /** async-profiler's native library extracted from its jar (for -agentpath:); null with the reason. */
    synchronized Path agentLibrary() {
        if (agentLibrary == null && agentMissing == null) {
            if (jvms.asyncProfilerJar == null) {
                agentMissing = "the async-profiler jar is not on the harness's classpath";
                return null;
            }
            String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
            String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
            String entry = !os.startsWith("linux") ? null
                    : arch.equals("amd64") || arch.equals("x86_64") ? "linux-x64/libasyncProfiler.so"
                    : arch.equals("aarch64") ? "linux-arm64/libasyncProfiler.so" : null;
            if (entry == null) {
                agentMissing = "no async-profiler library for " + os + "/" + arch + " in its jar";
                return null;
            }
            try (ZipFile zip = new ZipFile(jvms.asyncProfilerJar)) {
                ZipEntry e = zip.getEntry(entry);
                if (e == null) {
                    agentMissing = entry + " is not in " + jvms.asyncProfilerJar;
                    return null;
                }
                Path target = work.resolve("agent").resolve(entry);
                Files.createDirectories(target.getParent());
                try (InputStream in = zip.getInputStream(e)) {
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                }
                agentLibrary = target;
            } catch (IOException ex) {
                agentMissing = "cannot extract " + entry + " from " + jvms.asyncProfilerJar + ": " + ex;
            }
        }
        return agentLibrary;
    }

    String agentMissing() {
        return agentMissing;
    }
}
