package dev.cpuprofiler.internal.lookback;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Look-back runs for the application's whole life, so none of its threads may keep the JVM alive: JFR's
 * {@code RecordingStream.startAsync()} would (its "JFR Event Stream" thread is never a daemon, on JDK 17 and 25),
 * and a batch application would then never exit.
 */
class LookbackKeepsNoJvmAliveTest {

    @Test
    void anApplicationWhoseMainReturnsExitsWhileLookbackRecords() throws Exception {
        ChildJvm.Finished child = ChildJvm.of(LookbackBatchChild.class).lean().run(Duration.ofSeconds(20));

        assertThat(child.output()).as("child output").contains("recording");
        assertThat(child.exited()).as("JVM exited within 20 s of main returning; output:%n%s", child.output())
                .isTrue();
        assertThat(child.exitValue()).isZero();
    }
}
