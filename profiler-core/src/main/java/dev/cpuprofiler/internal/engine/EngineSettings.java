package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.CpuProfilerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How an engine samples.
 *
 * @param samplingPeriod time between two samples of one thread (CPU time for CPU-time engines); 1 ms to 1 s
 * @param maxStackDepth frames kept per sample, leaf-most first; deeper stacks are cut at the root end and marked
 * @param workDirectory where engines keep their recording files ({@code .jfr}); created when missing
 * @param recordingName prefix of file and JFR recording names, e.g. a session id; letters, digits, {@code . _ -}
 * @param diskSpace the free space engines keep where they write (JFR's repository, the work directory)
 * @param includeSystemInfo whether recordings also carry the JVM's system information (its arguments, system
 *     properties, OS and native libraries: see {@link JfrSystemInfo}); false keeps configuration out of every file
 */
public record EngineSettings(Duration samplingPeriod, int maxStackDepth, Path workDirectory, String recordingName,
        DiskSpaceGuard diskSpace, boolean includeSystemInfo) {

    // The limits the options check (profiler.cpu.stack-sampling-period), declared there once.
    public static final Duration MIN_PERIOD = CpuProfilerOptions.MIN_STACK_SAMPLING_PERIOD;
    public static final Duration MAX_PERIOD = CpuProfilerOptions.MAX_STACK_SAMPLING_PERIOD;

    public EngineSettings {
        Objects.requireNonNull(samplingPeriod, "samplingPeriod");
        Objects.requireNonNull(workDirectory, "workDirectory");
        Objects.requireNonNull(recordingName, "recordingName");
        Objects.requireNonNull(diskSpace, "diskSpace");
        if (samplingPeriod.compareTo(MIN_PERIOD) < 0 || samplingPeriod.compareTo(MAX_PERIOD) > 0) {
            throw new IllegalArgumentException("samplingPeriod " + samplingPeriod + " is not between 1 ms and 1 s");
        }
        if (maxStackDepth < 1) {
            throw new IllegalArgumentException("maxStackDepth must be at least 1, was " + maxStackDepth);
        }
        // The name goes into file names and async-profiler's comma-separated command line.
        if (!recordingName.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("recordingName '" + recordingName
                    + "' must be 1 to 64 letters, digits, '.', '_' or '-'");
        }
    }

    /** Settings without system information. */
    public EngineSettings(Duration samplingPeriod, int maxStackDepth, Path workDirectory, String recordingName,
            DiskSpaceGuard diskSpace) {
        this(samplingPeriod, maxStackDepth, workDirectory, recordingName, diskSpace, false);
    }

    /** Settings with the automatic free-space floor, without system information. */
    public EngineSettings(Duration samplingPeriod, int maxStackDepth, Path workDirectory, String recordingName) {
        this(samplingPeriod, maxStackDepth, workDirectory, recordingName, DiskSpaceGuard.auto());
    }

    /** Settings with the recording name {@code cpuprofile}. */
    public static EngineSettings of(Duration samplingPeriod, int maxStackDepth, Path workDirectory) {
        return new EngineSettings(samplingPeriod, maxStackDepth, workDirectory, "cpuprofile");
    }
}
