package dev.cpuprofiler.internal.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cpuprofiler.internal.engine.EnginesHere;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    private static final Path JDK25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"jfr-cpu-time", "async-profiler", "jfr-execution"})
    void anOnDemandProfileAskedForFromAVirtualThreadRecords(String engine) throws Exception {
        Path java = javaWithVirtualThreads();
        if (!engine.equals("jfr-cpu-time") || Runtime.version().feature() >= 25) {
            EnginesHere.assumeRunnable(engine);
        }
        Process child = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                OnDemandFromVirtualThreadChild.class.getName(), engine)).redirectErrorStream(true).start();
        assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("the child ended").isTrue();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String result = output.lines().filter(l -> l.startsWith("PROFILE") || l.startsWith("FAILED")).findFirst()
                .orElse("(no result)");
        System.out.println("[virtual threads] " + engine + " with " + java + ": " + result);
        assertThat(result).as(output).startsWith("PROFILE " + engine + " ").endsWith("fallbacks=[]");
    }

    /** This JVM's java when it has virtual threads (JDK 21+), else JDK 25's when installed. */
    private static Path javaWithVirtualThreads() throws IOException {
        if (Runtime.version().feature() >= 21) {
            return Path.of(System.getProperty("java.home"), "bin", "java");
        }
        Path java = JDK25.resolve("bin/java");
        if (!Files.isExecutable(java)) {
            System.out.println("[skip] virtual threads need JDK 21+: this is " + Runtime.version() + " and " + JDK25
                    + " is absent");
        }
        assumeTrue(Files.isExecutable(java), "virtual threads need JDK 21+");
        return java;
    }
}
