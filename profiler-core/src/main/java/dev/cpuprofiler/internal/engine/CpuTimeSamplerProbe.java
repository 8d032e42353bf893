package dev.cpuprofiler.internal.engine;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Checks that JFR's CPU-time sampler really delivers samples. If another SIGPROF handler (async-profiler, started
 * earlier in this JVM) was installed before JFR's, JDK 25 only logs "Conflicting SIGPROF handler found" and records
 * nothing, for the rest of the JVM's life. The other order is fine: once JFR's handler is in place, async-profiler
 * and JFR take turns without trouble. So a successful probe also protects later recordings.
 */
final class CpuTimeSamplerProbe {

    private static final long BURN_NANOS = 30_000_000L;
    private static final long MAX_WALL_NANOS = 1_000_000_000L;

    private final ThreadMXBean threads;

    CpuTimeSamplerProbe(ThreadMXBean threads) {
        this.threads = threads;
    }

    CpuTimeSamplerProbe() {
        this(ManagementFactory.getThreadMXBean());
    }

    /**
     * Records about 30 ms of this thread's CPU time at a 1 ms throttle.
     *
     * @param workDirectory where the probe's short-lived file goes
     * @return empty when samples arrived, otherwise why not
     */
    Optional<String> run(Path workDirectory) throws IOException {
        OwnerOnlyDirectory.create(workDirectory);
        Path file = Files.createTempFile(workDirectory, "cpu-time-probe-", ".jfr");
        try (Recording recording = new Recording()) {
            recording.setName("cpuprofiler-cpu-time-probe");
            recording.enable(JfrSampleReader.CPU_TIME_SAMPLE).with("throttle", "1ms");
            recording.start();
            burnCpu();
            recording.stop();
            recording.dump(file);
            long samples = 0;
            for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                if (event.getEventType().getName().equals(JfrSampleReader.CPU_TIME_SAMPLE)) {
                    samples++;
                }
            }
            if (samples > 0) {
                return Optional.empty();
            }
            return Optional.of("JFR's CPU-time sampler recorded nothing in a 30 ms probe: another SIGPROF handler "
                    + "(e.g. async-profiler started earlier in this JVM) is installed, so JFR logs "
                    + "'Conflicting SIGPROF handler found' and records nothing until the JVM restarts");
        } finally {
            RecordingFiles.deleteQuietly(file);
        }
    }

    // Arithmetic, not a System.nanoTime() spin: the sampler should find ordinary Java code running.
    private void burnCpu() {
        boolean cpuClock = threads.isCurrentThreadCpuTimeSupported();
        long cpuStart = cpuClock ? threads.getCurrentThreadCpuTime() : 0;
        long wallStart = System.nanoTime();
        long x = 0x9E3779B97F4A7C15L;
        while (true) {
            for (int i = 0; i < 200_000; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
            long wall = System.nanoTime() - wallStart;
            long cpu = cpuClock ? threads.getCurrentThreadCpuTime() - cpuStart : wall;
            if (cpu >= BURN_NANOS || wall >= MAX_WALL_NANOS || x == 42) {
                return;
            }
        }
    }
}
