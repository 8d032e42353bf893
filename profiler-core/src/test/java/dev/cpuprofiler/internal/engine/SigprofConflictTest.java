package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On JDK 25, async-profiler started before JFR's CPU-time sampler ever ran makes that sampler record nothing for
 * the rest of the JVM's life. jfr-cpu-time must then refuse with the reason, and auto must move on. Runs in a JVM
 * of its own, since the damage is permanent.
 */
class SigprofConflictTest {

    @Test
    void jfrCpuTimeRefusesAfterAsyncProfilerTookSigprofAndAutoMovesOn() throws Exception {
        EnginesHere.skipUnless(EnginesHere.cpuTimeExpected(), "sigprof conflict",
                "needs jdk.CPUTimeSample (JDK 25+ on Linux); this is Java " + Runtime.version());
        EnginesHere.assumeRunnable(AsyncProfilerEngine.ID);

        ChildJvm.Finished child = ChildJvm.of(SigprofConflictChild.class).lean()
                .withOptions("--enable-native-access=ALL-UNNAMED").run(Duration.ofSeconds(60));
        assertThat(child.exited()).as(child.output()).isTrue();
        assertThat(child.exitValue()).as(child.output()).isZero();
        List<String> output = child.lines("REFUSED", "STARTED", "AUTO");

        System.out.println("[sigprof] " + output);
        assertThat(output).anySatisfy(line -> assertThat(line).startsWith("REFUSED").contains("SIGPROF"));
        assertThat(output).contains("AUTO async-profiler [jfr-cpu-time]");
    }
}
