package dev.cpuprofiler.internal.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.ChildJvm;
import dev.cpuprofiler.internal.engine.EnginesHere;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An on-demand profile asked for from a virtual thread (a request of a Spring MVC application with
 * {@code spring.threads.virtual.enabled=true}) records with every engine: the engine is started on a platform thread
 * of the profiler's. async-profiler refused to start from a virtual thread ("Could not find VMThread bridge.
 * Unsupported JVM?"), so every on-demand profile of such an application failed where it was the engine. In a fresh
 * JVM each: once async-profiler has started from a platform thread, it starts from a virtual one too, which would hide
 * the failure.
 */
class OnDemandFromVirtualThreadTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jfr-cpu-time", "async-profiler", "jfr-execution"})
    void anOnDemandProfileAskedForFromAVirtualThreadRecords(String engine) throws Exception {
        Path javaHome = jdkWithVirtualThreads();
        if (!engine.equals("jfr-cpu-time") || Runtime.version().feature() >= 25) {
            EnginesHere.assumeRunnable(engine);
        }
        ChildJvm.Finished child = ChildJvm.of(OnDemandFromVirtualThreadChild.class, engine).on(javaHome).lean()
                .run(Duration.ofSeconds(90));
        String output = child.output();
        assertThat(child.exited()).as("the child ended: %s", output).isTrue();
        String result = child.lines("PROFILE", "FAILED").stream().findFirst().orElse("(no result)");
        System.out.println("[virtual threads] " + engine + " with " + javaHome + ": " + result);
        assertThat(result).as(output).startsWith("PROFILE " + engine + " ").endsWith("fallbacks=[]");
    }

    /** This JVM's JDK when it has virtual threads (JDK 21+), else JDK 25 when installed. */
    private static Path jdkWithVirtualThreads() {
        if (Runtime.version().feature() >= 21) {
            return Path.of(System.getProperty("java.home"));
        }
        return ChildJvm.jdk25OrSkip("[virtual threads]", "virtual threads need JDK 21+, this is " + Runtime.version());
    }
}
