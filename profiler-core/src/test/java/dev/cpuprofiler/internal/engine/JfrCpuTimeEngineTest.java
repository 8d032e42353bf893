package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JfrCpuTimeEngineTest {

    @TempDir
    Path workDirectory;

    @Test
    void refusesWhereTheJvmHasNoCpuTimeSampleEvent() {
        EnginesHere.skipUnless(!EnginesHere.cpuTimeExpected(), JfrCpuTimeEngine.ID,
                "this JVM has jdk.CPUTimeSample (Java " + Runtime.version() + ")");

        assertThatThrownBy(() -> new JfrCpuTimeEngine().start(settings(), new CollectingSink()))
                .isInstanceOf(EngineUnavailableException.class)
                .hasMessageContaining("jdk.CPUTimeSample")
                .hasMessageContaining("JDK 25");
    }

    @Test
    void refusesOffLinuxWhereTheEventRecordsNothing() {
        JfrCpuTimeEngine onMac = new JfrCpuTimeEngine(new CpuTimeSamplerProbe(), "Mac OS X");

        assertThatThrownBy(() -> onMac.start(settings(), new CollectingSink()))
                .isInstanceOf(EngineUnavailableException.class)
                .hasMessageContaining("only on Linux")
                .hasMessageContaining("Mac OS X");
    }

    private EngineSettings settings() {
        return EngineSettings.of(Duration.ofMillis(10), 64, workDirectory);
    }
}
