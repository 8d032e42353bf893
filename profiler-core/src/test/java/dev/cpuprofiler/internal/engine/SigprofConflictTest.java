package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

        List<String> output = runInOwnJvm(SigprofConflictChild.class.getName());

        System.out.println("[sigprof] " + output);
        assertThat(output).anySatisfy(line -> assertThat(line).startsWith("REFUSED").contains("SIGPROF"));
        assertThat(output).contains("AUTO async-profiler [jfr-cpu-time]");
    }

    private static List<String> runInOwnJvm(String mainClass) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "--enable-native-access=ALL-UNNAMED", mainClass)
                .redirectErrorStream(true).start();
        String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(text).isZero();
        return text.lines().filter(l -> l.startsWith("REFUSED") || l.startsWith("STARTED") || l.startsWith("AUTO"))
                .toList();
    }
}
