package dev.cpuprofiler.internal.engine;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What one recording asks of an engine ({@link ProfilingEngine#start}): not a copy of the options but a request, made
 * per session (its name is the session's id) from the options and the profiler's work directory and disk floor.
 *
 * @param samplingPeriod time between two samples of one thread (CPU time for CPU-time engines)
 * @param maxStackDepth frames kept per sample, leaf-most first; deeper stacks are cut at the root end and marked
 * @param workDirectory where engines keep their recording files ({@code .jfr}); created when missing
 * @param recordingName prefix of file and JFR recording names, e.g. a session id; letters, digits, {@code . _ -}
 * @param diskSpace the free space engines keep where they write (JFR's repository, the work directory)
 * @param includeSystemInfo whether recordings also carry the JVM's system information (its arguments, system
 *     properties, OS and native libraries: see {@link JfrSystemInfo}); false keeps configuration out of every file
 */
public record EngineSettings(Duration samplingPeriod, int maxStackDepth, Path workDirectory, String recordingName,
        DiskSpaceGuard diskSpace, boolean includeSystemInfo) {

    public EngineSettings {
        // The name goes into file names and async-profiler's comma-separated command line.
        if (!recordingName.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("recordingName '" + recordingName
                    + "' must be 1 to 64 letters, digits, '.', '_' or '-'");
        }
    }

    /** Settings with the recording name {@code cpuprofile}, the automatic free-space floor, no system information. */
    public static EngineSettings of(Duration samplingPeriod, int maxStackDepth, Path workDirectory) {
        return of(samplingPeriod, maxStackDepth, workDirectory, "cpuprofile");
    }

    /** As {@link #of(Duration, int, Path)}, its recordings named {@code recordingName}. */
    public static EngineSettings of(Duration samplingPeriod, int maxStackDepth, Path workDirectory,
            String recordingName) {
        return new EngineSettings(samplingPeriod, maxStackDepth, workDirectory, recordingName, DiskSpaceGuard.auto(),
                false);
    }
}
