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

    /**
     * The CPU time each attempt burns: 30 ms, then, when none of its samples arrived, 200 ms. On a busy machine JFR's
     * own thread may not hand a short attempt's samples over before it stops (seen in CI: a JDK 25 child, both cores
     * busy, nothing in 30 ms); the answer is settled for the JVM's life, so a wrong "no" must not come from load.
     */
    private static final long[] BURN_NANOS = {30_000_000L, 200_000_000L};
    private static final long MAX_WALL_NANOS = 1_000_000_000L;

    private final ThreadMXBean threads;

    CpuTimeSamplerProbe(ThreadMXBean threads) {
        this.threads = threads;
    }

    CpuTimeSamplerProbe() {
        this(ManagementFactory.getThreadMXBean());
    }

    /**
     * Records about 30 ms of this thread's CPU time at a 1 ms throttle, and 200 ms more when no sample arrived.
     *
     * @param workDirectory where the probe's short-lived file goes
     * @return empty when samples arrived, otherwise why not
     */
    Optional<String> run(Path workDirectory) throws IOException {
        OwnerOnlyDirectory.create(workDirectory);
        for (long burn : BURN_NANOS) {
            if (samplesIn(workDirectory, burn) > 0) {
                return Optional.empty();
            }
        }
        return Optional.of("JFR's CPU-time sampler recorded nothing in a 30 ms and a 200 ms probe: another SIGPROF "
                + "handler (e.g. async-profiler started earlier in this JVM) is installed, so JFR logs "
                + "'Conflicting SIGPROF handler found' and records nothing until the JVM restarts");
    }

    /** The CPU-time samples of a recording while this thread burns {@code burnNanos} of CPU time. */
    private long samplesIn(Path workDirectory, long burnNanos) throws IOException {
        Path file = Files.createTempFile(workDirectory, "cpu-time-probe-", ".jfr");
        try (Recording recording = new Recording()) {
            recording.setName("cpuprofiler-cpu-time-probe");
            recording.enable(JfrSampleReader.CPU_TIME_SAMPLE).with("throttle", "1ms");
            recording.start();
            burnCpu(burnNanos);
            recording.stop();
            recording.dump(file);
            long samples = 0;
            for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                if (event.getEventType().getName().equals(JfrSampleReader.CPU_TIME_SAMPLE)) {
                    samples++;
                }
            }
            return samples;
        } finally {
            RecordingFiles.deleteQuietly(file);
        }
    }

    // Arithmetic, not a System.nanoTime() spin: the sampler should find ordinary Java code running.
    private void burnCpu(long burnNanos) {
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
            if (cpu >= burnNanos || wall >= MAX_WALL_NANOS || x == 42) {
                return;
            }
        }
    }
}
