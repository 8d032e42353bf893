package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.Profile;
import dev.cpuprofiler.EngineChoice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cpuprofiler.internal.testing.ScriptedEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class EngineSelectorTest {

    @TempDir
    Path workDirectory;

    private final EngineLock lock = new EngineLock();
    private final CollectingSink sink = new CollectingSink();
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger selectorLogger = (Logger) LoggerFactory.getLogger(EngineSelector.class);

    private Level previousLevel;

    @BeforeEach
    void captureLog() {
        // logback-test.xml keeps dev.cpuprofiler at WARN; this test reads the INFO fallback lines.
        previousLevel = selectorLogger.getLevel();
        selectorLogger.setLevel(Level.DEBUG);
        log.start();
        selectorLogger.addAppender(log);
    }

    @AfterEach
    void releaseLog() {
        selectorLogger.detachAppender(log);
        selectorLogger.setLevel(previousLevel);
    }

    @Test
    void autoFallsBackToTheNextEngineAndTheResultSaysWhy() throws Exception {
        EngineSelector selector = new EngineSelector(List.of(
                ScriptedEngine.refusing("jfr-cpu-time", "this JVM has no jdk.CPUTimeSample"),
                ScriptedEngine.crashing("async-profiler", new IllegalStateException("boom")),
                ScriptedEngine.working("jfr-execution")), lock);

        SelectedRecording recording = selector.start(EngineChoice.AUTO, settings(), sink);
        EngineRecording.Result result = recording.stop();

        assertThat(recording.engineId()).isEqualTo("jfr-execution");
        assertThat(result.engineId()).isEqualTo("jfr-execution");
        assertThat(result.fallbacks()).containsExactly(
                new Profile.EngineFallback("jfr-cpu-time", "this JVM has no jdk.CPUTimeSample"),
                new Profile.EngineFallback("async-profiler",
                        "failed to start (IllegalStateException; the application's log has the details)"));
        assertThat(recording.fallbacks()).isEqualTo(result.fallbacks());
        assertThat(sink.totalWeight()).isEqualTo(1);
    }

    @Test
    void onVirtualThreadsAutoPrefersAnEngineThatSeesThemAndSaysWhy() throws Exception {
        ScriptedEngine async = ScriptedEngine.working("async-profiler");
        EngineSelector selector = new EngineSelector(List.of(
                ScriptedEngine.refusing("jfr-cpu-time", "this JVM has no jdk.CPUTimeSample"), async,
                ScriptedEngine.working("jfr-execution")), lock);

        SelectedRecording onVirtual = selector.start(EngineChoice.AUTO, settings(), sink, true);
        EngineRecording.Result result = onVirtual.stop();
        assertThat(result.engineId()).isEqualTo("jfr-execution");
        assertThat(onVirtual.seesVirtualThreads()).isTrue();
        assertThat(result.fallbacks()).containsExactly(
                new Profile.EngineFallback("jfr-cpu-time", "this JVM has no jdk.CPUTimeSample"),
                new Profile.EngineFallback("async-profiler", EngineSelector.BLIND));
        assertThat(async.starts).hasValue(0);

        SelectedRecording onPlatform = selector.start(EngineChoice.AUTO, settings(), sink, false);
        assertThat(onPlatform.stop().engineId()).isEqualTo("async-profiler");

        // When only the blind engine records, it records, and the recording says it is blind.
        EngineSelector onlyBlind = new EngineSelector(List.of(async,
                ScriptedEngine.refusing("jfr-execution", "no jdk.jfr module")), lock);
        SelectedRecording last = onlyBlind.start(EngineChoice.AUTO, settings(), sink, true);
        assertThat(last.engineId()).isEqualTo("async-profiler");
        assertThat(last.seesVirtualThreads()).isFalse();
        assertThat(last.stop().fallbacks()).containsExactly(
                new Profile.EngineFallback("jfr-execution", "no jdk.jfr module"));
    }

    @Test
    void autoUsesTheFirstEngineThatStartsAndTriesNoOther() throws Exception {
        ScriptedEngine first = ScriptedEngine.working("jfr-cpu-time");
        ScriptedEngine second = ScriptedEngine.working("async-profiler");
        EngineSelector selector = new EngineSelector(List.of(first, second), lock);

        EngineRecording.Result result = selector.start(EngineChoice.AUTO, settings(), sink).stop();

        assertThat(result.engineId()).isEqualTo("jfr-cpu-time");
        assertThat(result.fallbacks()).isEmpty();
        assertThat(second.starts).hasValue(0);
    }

    @Test
    void anExplicitChoiceTriesOnlyThatEngineAndFailsWithItsReason() {
        ScriptedEngine execution = ScriptedEngine.working("jfr-execution");
        EngineSelector selector = new EngineSelector(List.of(
                ScriptedEngine.refusing("async-profiler", "tools.profiler:async-profiler is not on the classpath"),
                execution), lock);

        assertThatThrownBy(() -> selector.start(EngineChoice.ASYNC_PROFILER, settings(), sink))
                .isInstanceOf(EngineUnavailableException.class)
                .hasMessageContaining("async-profiler")
                .hasMessageContaining("not on the classpath");
        assertThat(execution.starts).as("no fallback for an explicit choice").hasValue(0);
        assertThat(lock.holder()).as("lock released after the refusal").isEmpty();
    }

    @Test
    void whenNoEngineCanRecordAutoFailsWithEveryReason() {
        EngineSelector selector = new EngineSelector(List.of(
                ScriptedEngine.refusing("jfr-cpu-time", "needs JDK 25"),
                ScriptedEngine.refusing("jfr-execution", "JFR is disabled")), lock);

        assertThatThrownBy(() -> selector.start(EngineChoice.AUTO, settings(), sink))
                .isInstanceOf(EngineUnavailableException.class)
                .hasMessageContaining("jfr-cpu-time: needs JDK 25")
                .hasMessageContaining("jfr-execution: JFR is disabled");
        assertThat(lock.holder()).isEmpty();
    }

    @Test
    void aSecondStartWhileOneRecordsIsRefusedAtOnce() throws Exception {
        EngineSelector selector = new EngineSelector(List.of(ScriptedEngine.working("jfr-execution")), lock);
        EngineSelector other = new EngineSelector(List.of(ScriptedEngine.working("async-profiler")), lock);

        SelectedRecording running = selector.start(EngineChoice.AUTO, settings(), sink);

        assertThatThrownBy(() -> selector.start(EngineChoice.AUTO, settings(), sink))
                .isInstanceOf(EngineLock.BusyException.class)
                .hasMessageContaining("only one engine records at a time");
        assertThatThrownBy(() -> other.start(EngineChoice.ASYNC_PROFILER, settings(), sink))
                .as("another selector sharing the lock").isInstanceOf(EngineLock.BusyException.class);

        running.stop();
        selector.start(EngineChoice.AUTO, settings(), sink).cancel();
        assertThat(selector.start(EngineChoice.AUTO, settings(), sink).stop().engineId())
                .as("free again after stop and after cancel").isEqualTo("jfr-execution");
    }

    @Test
    void ofTwoStartsAtTheSameMomentExactlyOneRecords() throws Exception {
        EngineSelector selector = new EngineSelector(List.of(ScriptedEngine.working("jfr-execution")), lock);
        CountDownLatch go = new CountDownLatch(1);
        Callable<Object> attempt = () -> {
            go.await();
            try {
                return selector.start(EngineChoice.AUTO, settings(), sink);
            } catch (EngineLock.BusyException e) {
                return e;
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Object> a = pool.submit(attempt);
            Future<Object> b = pool.submit(attempt);
            go.countDown();
            List<Object> outcomes = List.of(a.get(), b.get());
            assertThat(outcomes).filteredOn(o -> o instanceof SelectedRecording).hasSize(1);
            assertThat(outcomes).filteredOn(o -> o instanceof EngineLock.BusyException).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFallbackIsLoggedOncePerEngineNotEverySession() throws Exception {
        EngineSelector selector = new EngineSelector(List.of(
                ScriptedEngine.refusing("jfr-cpu-time", "needs JDK 25"),
                ScriptedEngine.working("jfr-execution")), lock);

        List<EngineRecording.Result> results = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            results.add(selector.start(EngineChoice.AUTO, settings(), sink).stop());
        }

        assertThat(results).allSatisfy(r -> assertThat(r.fallbacks()).extracting(Profile.EngineFallback::engineId)
                .containsExactly("jfr-cpu-time"));
        assertThat(log.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.INFO))
                .singleElement()
                .satisfies(e -> assertThat(e.getFormattedMessage()).contains("jfr-cpu-time", "needs JDK 25"));
    }

    @Test
    void onJdk17AutoPassesOverJfrCpuTimeAndSaysWhy() throws Exception {
        EnginesHere.skipUnless(Runtime.version().feature() < 25, "jfr-cpu-time fallback",
                "needs a JDK without jdk.CPUTimeSample (before 25); this is Java " + Runtime.version());
        EnginesHere.letJfrInstallSigprofFirst();
        EngineSelector selector = new EngineSelector(EngineSelector.standardEngines(), lock);

        SelectedRecording recording = selector.start(EngineChoice.AUTO, settings(), sink);
        Thread.sleep(300);
        EngineRecording.Result result = recording.stop();

        assertThat(result.engineId()).isEqualTo(EnginesHere.autoExpected());
        assertThat(result.fallbacks()).first().satisfies(f -> {
            assertThat(f.engineId()).isEqualTo(JfrCpuTimeEngine.ID);
            assertThat(f.reason()).contains("jdk.CPUTimeSample", "JDK 25");
        });
    }

    @Test
    void realEnginesAlsoRecordOneAtATime() throws Exception {
        EnginesHere.letJfrInstallSigprofFirst();
        EngineSelector selector = new EngineSelector(EngineSelector.standardEngines(), lock);

        SelectedRecording running = selector.start(EngineChoice.AUTO, settings(), sink);
        try {
            assertThatThrownBy(() -> selector.start(EngineChoice.JFR_EXECUTION, settings(), new CollectingSink()))
                    .isInstanceOf(EngineLock.BusyException.class)
                    .hasMessageContaining("only one engine records at a time");
        } finally {
            running.stop();
        }
        assertThat(lock.holder()).isEmpty();
    }

    private EngineSettings settings() {
        return EngineSettings.of(Duration.ofMillis(10), 64, workDirectory);
    }
}
