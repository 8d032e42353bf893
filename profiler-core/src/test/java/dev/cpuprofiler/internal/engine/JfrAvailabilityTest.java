package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class JfrAvailabilityTest {

    @Test
    void noJfrRecordingStartsOnceTheJvmShutsDown() throws Exception {
        // A recording started during shutdown never returns, and the profiler's close then waits on it for ever.
        ChildJvm.Finished child = ChildJvm.of(ShutdownChild.class).lean().run(Duration.ofSeconds(60));

        assertThat(child.exited()).as(child.output()).isTrue();
        assertThat(child.lines("RUNNING")).containsExactly("RUNNING false null");
        assertThat(child.lines("SHUTDOWN")).singleElement().asString()
                .startsWith("SHUTDOWN true the JVM is shutting down");
    }
}
