package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.EngineChoice;

import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.FlightRecorder;

/**
 * Run in a JVM of its own, with the test's temporary directory as its argument: an {@code auto} recording with the standard engines, then whether JFR was initialised.
 * Where async-profiler records (JDK 17-24), nothing may have initialised JFR on the way.
 */
public final class AutoLeavesJfrAloneChild {

    public static void main(String[] args) throws Exception {
        EngineSelector selector = new EngineSelector(EngineSelector.standardEngines(), new EngineLock());
        SelectedRecording recording = selector.start(EngineChoice.AUTO,
                EngineSettings.of(Duration.ofMillis(10), 512, Path.of(args[0])),
                (frames, thread, weight) -> { });
        long until = System.nanoTime() + 300_000_000L;
        long x = 0;
        while (System.nanoTime() < until) {
            x += Long.bitCount(x * 31 + 7);
        }
        recording.stop();
        System.out.println("ENGINE " + recording.engineId() + " JFR-INITIALIZED " + FlightRecorder.isInitialized()
                + " " + (x == 42 ? "" : "."));
    }
}
