package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cpuprofiler.fixtures.ChildJvm;
import dev.cpuprofiler.internal.testing.SplitWorkloadRunning;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class AsyncProfilerEngineTest {

    @RegisterExtension
    static final SplitWorkloadRunning WORKLOAD = new SplitWorkloadRunning();

    @TempDir
    Path workDirectory;

    @Test
    void reportsWhetherItRanOnPerfEventsOrCtimer() throws Exception {
        EnginesHere.assumeRunnable(AsyncProfilerEngine.ID);

        EngineRecording.Result result = record(new AsyncProfilerEngine());

        System.out.println("[async-profiler] engine " + result.engineDetail() + ", notes " + result.notes());
        assertThat(result.engineDetail()).isIn("perf_events", "ctimer");
        assertThat(result.samples()).isPositive();
    }

    @Test
    void theReportedEngineIsTheOneAsyncProfilerReallyUsed() throws Exception {
        EnginesHere.assumeRunnable(AsyncProfilerEngine.ID);

        // Asking for ctimer outright must come back as ctimer: the detail is read from the recording, not assumed.
        EngineRecording.Result result = record(new AsyncProfilerEngine("ctimer", () -> AsyncProfilerBridge.load(null)));

        assertThat(result.engineDetail()).isEqualTo("ctimer");
        assertThat(result.notes()).anyMatch(n -> n.contains("ctimer") && n.contains("no kernel frames"));
    }

    @Test
    void theLibraryLoadsAtTheFirstRecordingAndAFailureIsRemembered() throws Exception {
        AtomicInteger loads = new AtomicInteger();
        AsyncProfilerEngine engine = new AsyncProfilerEngine("cpu", () -> {
            loads.incrementAndGet();
            throw new UnsatisfiedLinkError("no library for this platform");
        }, new DebugNonSafepointsCheck());
        assertThat(engine.turnsOnDebugNonSafepoints()).isTrue(); // on the classpath, not loaded yet
        assertThat(loads).as("nothing loads before the first recording").hasValue(0);

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> engine.start(EngineSettings.of(Duration.ofMillis(10), 64, workDirectory),
                    (frames, thread, weight) -> { }))
                    .isInstanceOf(EngineUnavailableException.class).hasMessageContaining("no library for this platform");
        }
        assertThat(loads).as("the failure is kept: the second session gets the reason without loading").hasValue(1);
        assertThat(engine.turnsOnDebugNonSafepoints()).isFalse();
    }

    @Test
    void loadingTheRealLibraryTurnsOnDebugNonSafepoints() throws Exception {
        EnginesHere.assumeRunnable(AsyncProfilerEngine.ID);
        // The surefire JVM already runs with the flag; a fresh JVM without it shows the effect.
        // Unlocked (not enabled) so the child can read the real flag back.
        ChildJvm.Finished child = ChildJvm.of(AsyncProfilerFirstRecordingChild.class).lean()
                .withOptions("-XX:+UnlockDiagnosticVMOptions").run(Duration.ofSeconds(60));
        String out = child.output();
        assertThat(child.exited()).isTrue();
        System.out.println("[async-profiler first recording] " + out.lines().filter(l -> l.startsWith("FLAG")).toList());
        assertThat(out).contains("FLAG before false false");
        assertThat(out).contains("FLAG built false false"); // building the engine loads nothing
        assertThat(out).contains("FLAG after true true"); // the JVM's flag, and what the profiler believes
    }

    @Test
    void autoDoesNotInitialiseJfrWhenAsyncProfilerRecords() throws Exception {
        EnginesHere.assumeRunnable(AsyncProfilerEngine.ID);
        // Initialising JFR instruments the JDK's I/O classes and throws away the JIT's code that inlined them: a
        // warming web app lost a third of its throughput. Only an engine that records with JFR may initialise it.
        ChildJvm.Finished child = ChildJvm.of(AutoLeavesJfrAloneChild.class, workDirectory.toString()).lean()
                .run(Duration.ofSeconds(60));
        String out = child.output();
        assertThat(child.exited()).isTrue();
        String line = out.lines().filter(l -> l.startsWith("ENGINE")).findFirst().orElseThrow(() ->
                new AssertionError(out));
        System.out.println("[auto and JFR] " + line);
        if (line.startsWith("ENGINE async-profiler")) {
            assertThat(line).as(out).contains("JFR-INITIALIZED false");
        } else {
            assertThat(line).as(out).startsWith("ENGINE jfr-cpu-time"); // JDK 25: JFR records, so it is initialised
        }
    }

    @Test
    void aNativeLibraryThatFailsToLoadMakesTheEngineUnavailableWithTheReason() {
        AtomicInteger attempts = new AtomicInteger();
        AsyncProfilerEngine engine = new AsyncProfilerEngine("cpu", () -> {
            attempts.incrementAndGet();
            throw new UnsatisfiedLinkError("/tmp/libasyncProfiler.so: failed to map segment from shared object");
        });

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> engine.start(settings(), new CollectingSink()))
                    .isInstanceOf(EngineUnavailableException.class)
                    .hasMessageContaining("native library failed to load")
                    .hasMessageContaining("failed to map segment");
        }
        assertThat(attempts).as("a failed load is final for the JVM; not retried").hasValue(1);
    }

    @Test
    void anyErrorWhileLoadingIsAReasonNotACrash() {
        AsyncProfilerEngine engine = new AsyncProfilerEngine("cpu", () -> {
            throw new NoClassDefFoundError("one/profiler/AsyncProfiler");
        });

        assertThatThrownBy(() -> engine.start(settings(), new CollectingSink()))
                .isInstanceOf(EngineUnavailableException.class)
                .hasMessageContaining("NoClassDefFoundError");
    }

    @Test
    void withoutTheOptionalJarTheEngineStillLoadsAndSaysWhyItCannotRecord() throws Exception {
        // The engine's own classes and SLF4J, but not async-profiler's jar; the JDK comes from the platform loader.
        URL[] urls = {
            codeSource(ProfilingEngine.class), codeSource(LoggerFactory.class),
            codeSource(ch.qos.logback.classic.Logger.class), codeSource(ch.qos.logback.core.Appender.class)};
        try (URLClassLoader withoutJar = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> Class.forName(AsyncProfilerEngine.PROFILER_CLASS, false, withoutJar))
                    .isInstanceOf(ClassNotFoundException.class);

            Class<?> engineClass = withoutJar.loadClass(AsyncProfilerEngine.class.getName());
            Object engine = engineClass.getConstructor().newInstance();
            Class<?> settingsClass = withoutJar.loadClass(EngineSettings.class.getName());
            Object settings = settingsClass.getMethod("of", Duration.class, int.class, Path.class)
                    .invoke(null, Duration.ofMillis(10), 64, workDirectory);
            Class<?> sinkClass = withoutJar.loadClass("dev.cpuprofiler.internal.stack.StackSink");
            Object sink = Proxy.newProxyInstance(withoutJar, new Class<?>[] {sinkClass}, (p, m, a) -> null);

            assertThatThrownBy(() -> invoke(engineClass, engine, settingsClass, sinkClass, settings, sink))
                    .satisfies(e -> {
                        assertThat(e.getClass().getName()).isEqualTo(EngineUnavailableException.class.getName());
                        assertThat(e).hasMessageContaining("tools.profiler:async-profiler is not on the classpath");
                    });
        }
    }

    private static void invoke(Class<?> engineClass, Object engine, Class<?> settingsClass, Class<?> sinkClass,
            Object settings, Object sink) throws Throwable {
        try {
            engineClass.getMethod("start", settingsClass, sinkClass).invoke(engine, settings, sink);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static URL codeSource(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    private EngineRecording.Result record(AsyncProfilerEngine engine) throws Exception {
        EngineRecording recording = engine.start(settings(), new CollectingSink());
        Thread.sleep(1_000);
        return recording.stop();
    }

    private EngineSettings settings() {
        return EngineSettings.of(Duration.ofMillis(10), 64, workDirectory);
    }
}
