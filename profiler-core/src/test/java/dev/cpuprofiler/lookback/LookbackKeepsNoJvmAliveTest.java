package dev.cpuprofiler.lookback;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Look-back runs for the application's whole life, so none of its threads may keep the JVM alive: JFR's
 * {@code RecordingStream.startAsync()} would (its "JFR Event Stream" thread is never a daemon, on JDK 17 and 25),
 * and a batch application would then never exit.
 */
class LookbackKeepsNoJvmAliveTest {

    @Test
    void anApplicationWhoseMainReturnsExitsWhileLookbackRecords() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                LookbackBatchMain.class.getName())).redirectErrorStream(true).start();

        boolean exited = child.waitFor(30, TimeUnit.SECONDS);
        if (!exited) {
            child.destroyForcibly();
        }
        String output;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            output = r.lines().collect(Collectors.joining("\n"));
        }

        assertThat(output).as("child output").contains("recording");
        assertThat(exited).as("JVM exited after main returned; output:\n" + output).isTrue();
        assertThat(child.exitValue()).isZero();
    }
}
