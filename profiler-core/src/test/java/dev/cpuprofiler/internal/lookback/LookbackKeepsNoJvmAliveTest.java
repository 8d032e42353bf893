package dev.cpuprofiler.internal.lookback;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Look-back runs for the application's whole life, so none of its threads may keep the JVM alive: JFR's
 * {@code RecordingStream.startAsync()} would (its "JFR Event Stream" thread is never a daemon, on JDK 17 and 25),
 * and a batch application would then never exit.
 */
class LookbackKeepsNoJvmAliveTest {

    @Test
    void anApplicationWhoseMainReturnsExitsWhileLookbackRecords(@TempDir Path dir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path log = dir.resolve("child.log");
        Process child = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                LookbackBatchChild.class.getName())).redirectErrorStream(true).redirectOutput(log.toFile()).start();

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
