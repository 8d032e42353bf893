package dev.cpuprofiler.internal.engine;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Run in a JVM of its own with diagnostic options unlocked but DebugNonSafepoints off: prints the JVM's flag and what
 * the profiler's check believes, before and after async-profiler's first recording.
 */
public final class AsyncProfilerFirstRecordingChild {

    public static void main(String[] args) throws Exception {
        DebugNonSafepointsCheck check = new DebugNonSafepointsCheck();
        System.out.println("FLAG before " + realFlag() + " " + check.warning().isEmpty());
        AsyncProfilerEngine engine = new AsyncProfilerEngine(null, check);
        System.out.println("FLAG built " + realFlag() + " " + check.warning().isEmpty());
        Path dir = Files.createTempDirectory("first-recording");
        EngineRecording.Result result = engine.start(EngineSettings.of(Duration.ofMillis(10), 64, dir),
                new CollectingSink()).stop();
        Files.deleteIfExists(result.jfrFile());
        Files.deleteIfExists(dir);
        System.out.println("FLAG after " + realFlag() + " " + check.warning().isEmpty());
    }

    private static boolean realFlag() {
        return Boolean.parseBoolean(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("DebugNonSafepoints").getValue());
    }
}
