package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A profile that records when the application's work is done must not keep the JVM alive: JFR's
 * {@code RecordingStream.startAsync()} would (its "JFR Event Stream" thread is never a daemon, on JDK 17 and 25).
 */
class RecordingKeepsNoJvmAliveTest {

    @ParameterizedTest
    @ValueSource(strings = {JfrExecutionEngine.ID, JfrCpuTimeEngine.ID})
    void anApplicationWhoseMainReturnsExitsWhileAJfrEngineRecords(String engine, @TempDir Path dir) throws Exception {
        if (engine.equals(JfrCpuTimeEngine.ID) && Runtime.version().feature() < 25) {
            System.out.println("Skipping jfr-cpu-time: it needs JDK 25, this is " + Runtime.version());
            org.junit.jupiter.api.Assumptions.abort("jfr-cpu-time needs JDK 25");
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                RecordingBatchChild.class.getName(), engine)).redirectErrorStream(true).redirectOutput(log.toFile())
                .start();

        boolean exited = child.waitFor(20, TimeUnit.SECONDS);
        if (!exited) {
            child.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        String output = Files.readString(log);

        assertThat(output).as("child output").contains("recording");
        assertThat(exited).as("JVM exited within 20 s of main returning; output:%n%s", output).isTrue();
        assertThat(child.exitValue()).isZero();
    }
}
