package dev.cpuprofiler.internal.lookback;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.fixtures.ChildJvm;
import dev.cpuprofiler.internal.engine.AsyncProfilerEngine;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.EnginesHere;
import dev.cpuprofiler.internal.engine.JfrCpuTimeEngine;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

/**
 * The look-back samples what the sessions will record: CPU time where they record with jfr-cpu-time, else
 * {@code jdk.ExecutionSample}, and never CPU time where a session may record with async-profiler (both take SIGPROF,
 * and the second to install its handler records nothing). Each JVM this runs on answers for itself: JDK 17 and 25.
 */
class LookbackSourceChoiceTest {

    private static final ThreadFactory THREADS = Thread::new;

    @Test
    void sessionsRecordingExecutionSamplesGetAnExecutionSampleLookback() {
        LookbackSourceChoice choice = choose(EngineChoice.JFR_EXECUTION);

        assertThat(choice.source()).isInstanceOf(JfrExecutionSampleSource.class);
        assertThat(choice.reason()).startsWith("jdk.ExecutionSample").contains("profiler.cpu.engine=jfr-execution");
    }

    @Test
    void sessionsRecordingWithAsyncProfilerNeverGetACpuTimeLookbackEvenWhereItWorks() {
        LookbackSourceChoice choice = choose(EngineChoice.ASYNC_PROFILER);

        System.out.println("[choice] async-profiler on Java " + Runtime.version().feature() + ": " + choice);
        assertThat(choice.source()).isInstanceOf(JfrExecutionSampleSource.class);
        assertThat(choice.reason()).contains("async-profiler").contains("SIGPROF");
    }

    @Test
    void autoSamplesCpuTimeWhereTheJvmHasItAndExecutionSamplesElsewhere() {
        LookbackSourceChoice choice = choose(EngineChoice.AUTO);

        System.out.println("[choice] auto on Java " + Runtime.version().feature() + ": " + choice);
        if (EnginesHere.cpuTimeExpected()) {
            assertThat(choice.source()).isInstanceOf(JfrCpuTimeSampleSource.class);
            assertThat(choice.source().description()).isEqualTo("jdk.CPUTimeSample");
            assertThat(choice.reason()).startsWith("jdk.CPUTimeSample").contains("jfr-cpu-time");
        } else {
            assertThat(choice.source()).isInstanceOf(JfrExecutionSampleSource.class);
            assertThat(choice.reason()).startsWith("jdk.ExecutionSample")
                    .contains("async-profiler or jfr-execution").contains("JDK 25");
        }
    }

    @Test
    void anExplicitJfrCpuTimeEngineGetsACpuTimeLookbackWhereItCanRecord() {
        LookbackSourceChoice choice = choose(EngineChoice.JFR_CPU_TIME);

        System.out.println("[choice] jfr-cpu-time on Java " + Runtime.version().feature() + ": " + choice);
        if (EnginesHere.cpuTimeExpected()) {
            assertThat(choice.source()).isInstanceOf(JfrCpuTimeSampleSource.class);
        } else {
            assertThat(choice.source()).isInstanceOf(JfrExecutionSampleSource.class);
            assertThat(choice.reason()).contains("the sessions cannot record").contains("JDK 25");
        }
    }

    /** Choosing happens while the profiler is built: initialising JFR then would cost a warming application. */
    @Test
    void choosingInitialisesNoJfr() throws Exception {
        List<String> output = runInOwnJvm("fresh");

        System.out.println("[choice] own JVM: " + output);
        assertThat(output).contains("JFR_INITIALIZED false");
        assertThat(output).anySatisfy(line -> assertThat(line).startsWith("CHOSE jdk."));
    }

    /**
     * Where async-profiler took SIGPROF first (JDK 25), JFR's CPU-time sampler records nothing and auto sessions
     * fall back to async-profiler: the look-back must then sample {@code jdk.ExecutionSample}, not keep an empty ring.
     */
    @Test
    void whereJfrsCpuTimeSamplerIsSilentTheLookbackSamplesExecutionSamplesInstead() throws Exception {
        EnginesHere.assumeRunnable(JfrCpuTimeEngine.ID);
        EnginesHere.assumeRunnable(AsyncProfilerEngine.ID);

        List<String> output = runInOwnJvm("after-async-profiler");

        System.out.println("[choice] after async-profiler: " + output);
        assertThat(output).anySatisfy(line -> assertThat(line).startsWith("CHOSE jdk.CPUTimeSample"));
        assertThat(output).anySatisfy(line -> assertThat(line).startsWith("SOURCE jdk.ExecutionSample")
                .contains("SIGPROF"));
        assertThat(output.stream().filter(line -> line.startsWith("SAMPLES ")).mapToLong(
                line -> Long.parseLong(line.substring("SAMPLES ".length()))).sum()).as("samples of a burning thread")
                .isPositive();
    }

    private static LookbackSourceChoice choose(EngineChoice engine) {
        return LookbackSourceChoice.choose(engine, 64, THREADS, DiskSpaceGuard.auto(), JfrPeriodicTaskKeeper.none());
    }

    private static List<String> runInOwnJvm(String mode) throws IOException, InterruptedException {
        ChildJvm.Finished child = ChildJvm.of(LookbackSourceChoiceChild.class, mode).lean()
                .withOptions("--enable-native-access=ALL-UNNAMED").run(Duration.ofSeconds(60));
        assertThat(child.exited()).as(child.output()).isTrue();
        assertThat(child.exitValue()).as(child.output()).isZero();
        return child.lines("CHOSE", "JFR_INITIALIZED", "SOURCE", "SAMPLES");
    }
}
