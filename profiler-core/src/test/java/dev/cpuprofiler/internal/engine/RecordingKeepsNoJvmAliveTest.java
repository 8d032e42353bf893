package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A profile that records when the application's work is done must not keep the JVM alive: JFR's
 * {@code RecordingStream.startAsync()} would (its "JFR Event Stream" thread is never a daemon, on JDK 17 and 25).
 */
class RecordingKeepsNoJvmAliveTest {

    @ParameterizedTest
    @ValueSource(strings = {JfrExecutionEngine.ID, JfrCpuTimeEngine.ID})
    void anApplicationWhoseMainReturnsExitsWhileAJfrEngineRecords(String engine) throws Exception {
        if (engine.equals(JfrCpuTimeEngine.ID) && Runtime.version().feature() < 25) {
            System.out.println("Skipping jfr-cpu-time: it needs JDK 25, this is " + Runtime.version());
            org.junit.jupiter.api.Assumptions.abort("jfr-cpu-time needs JDK 25");
        }
        ChildJvm.Finished child = ChildJvm.of(RecordingBatchChild.class, engine).lean().run(Duration.ofSeconds(20));

        assertThat(child.output()).as("child output").contains("recording");
        assertThat(child.exited()).as("JVM exited within 20 s of main returning; output:%n%s", child.output())
                .isTrue();
        assertThat(child.exitValue()).isZero();
    }
}
