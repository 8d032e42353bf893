package dev.cpuprofiler.internal.engine;

import java.nio.file.Files;
import java.time.Duration;

/**
 * A "batch application" for {@link RecordingKeepsNoJvmAliveTest}: starts a JFR engine's recording (the one named by
 * the first argument), prints {@code recording} and returns from main without stopping it, as an application whose
 * work is done while a profile records. The JVM must then exit.
 */
public final class RecordingBatchChild {

    private RecordingBatchChild() {
    }

    public static void main(String[] args) throws Exception {
        ProfilingEngine engine = args[0].equals(JfrCpuTimeEngine.ID) ? new JfrCpuTimeEngine()
                : new JfrExecutionEngine();
        EngineSettings settings = EngineSettings.of(Duration.ofMillis(10), 64,
                Files.createTempDirectory("batch-recording"));
        engine.start(settings, new CollectingSink());
        Thread.sleep(1_500);  // a flush or two: the stream is fully under way
        System.out.println("recording");
    }
}
