package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.testing.SplitWorkloadRunning;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The recording each engine hands over (served as {@code format=jfr}, pushed as {@code jfr}) carries no system
 * information unless asked: no system properties, no JVM arguments or command line, no OS or native library
 * events; with {@link EngineSettings#includeSystemInfo()} it carries the JVM's arguments and system properties
 * again. And a JFR engine's file holds only its own events even while another recording in the JVM records the
 * system properties: filtered on JDK 19+, not kept on JDK 17 and 18 (the profile's notes say which).
 */
class SystemInfoInRecordingsTest {

    private static final Set<String> SYSTEM_INFO = Set.of("jdk.InitialSystemProperty", "jdk.JVMInformation",
            "jdk.OSInformation", "jdk.CPUInformation", "jdk.NativeLibrary", "jdk.InitialEnvironmentVariable");

    /**
     * Long enough for a file, not for samples: the system information is written as the recording's chunk begins, so
     * the opt-in's test, which finds it in a recording as short, is the control for the default's.
     */
    private static final Duration SHORT = Duration.ofMillis(300);

    @RegisterExtension
    static final SplitWorkloadRunning WORKLOAD = new SplitWorkloadRunning();

    @TempDir
    Path workDirectory;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {JfrCpuTimeEngine.ID, AsyncProfilerEngine.ID, JfrExecutionEngine.ID})
    void recordingsCarryNoSystemInformationByDefault(String engineId) throws Exception {
        EnginesHere.assumeRunnable(engineId);
        EngineRecording.Result result = record(engineId, false, SHORT);

        assertThat(result.jfrFile()).isRegularFile();
        Set<String> types = eventTypes(result.jfrFile());
        assertThat(types).as("event types in %s's recording", engineId).doesNotContainAnyElementsOf(SYSTEM_INFO);
        assertThat(propertyValues(result.jfrFile())).as("system properties in it").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {JfrCpuTimeEngine.ID, AsyncProfilerEngine.ID, JfrExecutionEngine.ID})
    void theOptInBringsTheArgumentsAndPropertiesBack(String engineId) throws Exception {
        EnginesHere.assumeRunnable(engineId);
        EngineRecording.Result result = record(engineId, true, SHORT);

        assertThat(result.jfrFile()).isRegularFile();
        assertThat(eventTypes(result.jfrFile())).as("event types in %s's recording", engineId)
                .contains("jdk.InitialSystemProperty", "jdk.JVMInformation")
                .doesNotContain("jdk.InitialEnvironmentVariable");
        assertThat(propertyValues(result.jfrFile())).as("system properties in it")
                .contains(System.getProperty("java.home"));
    }

    @Test
    void aJfrEnginesFileHoldsOnlyItsOwnEventsNextToAnotherRecording() throws Exception {
        EngineRecording.Result result;
        try (Recording other = new Recording()) {
            other.enable("jdk.InitialSystemProperty").with("period", "beginChunk");
            other.enable("jdk.JVMInformation").with("period", "beginChunk");
            other.start();
            result = record(JfrExecutionEngine.ID, false, Duration.ofMillis(1_500));
        }
        assertThat(result.samples()).as("the profile's samples are unaffected").isPositive();
        if (Runtime.version().feature() >= 19) {
            assertThat(result.jfrFile()).isRegularFile();
            assertThat(eventTypes(result.jfrFile())).containsOnly(JfrSampleReader.EXECUTION_SAMPLE);
            assertThat(result.notes()).anyMatch(n -> n.contains("holds only this profile's own events")
                    && n.contains("jdk.InitialSystemProperty") && n.contains("filtered out"));
        } else {
            assertThat(result.jfrFile()).as("an unfilterable recording is not kept").isNull();
            assertThat(result.notes()).anyMatch(n -> n.contains("is not kept")
                    && n.contains("jdk.InitialSystemProperty") && n.contains("JDK 19 and later can"));
        }
        try (Stream<Path> left = Files.list(workDirectory)) {
            assertThat(left.filter(f -> !f.equals(result.jfrFile()))).as("no other file left behind").isEmpty();
        }
    }

    private EngineRecording.Result record(String engineId, boolean includeSystemInfo, Duration length) throws Exception {
        EngineSettings settings = new EngineSettings(Duration.ofMillis(10), 256, workDirectory, "sysinfo",
                DiskSpaceGuard.auto(), includeSystemInfo);
        EngineRecording recording = EnginesHere.create(engineId).start(settings, new CollectingSink());
        Thread.sleep(length.toMillis());
        return recording.stop();
    }

    private static Set<String> eventTypes(Path file) throws IOException {
        Set<String> types = new HashSet<>();
        try (RecordingFile in = new RecordingFile(file)) {
            while (in.hasMoreEvents()) {
                types.add(in.readEvent().getEventType().getName());
            }
        }
        return types;
    }

    private static Set<String> propertyValues(Path file) throws IOException {
        Set<String> values = new HashSet<>();
        try (RecordingFile in = new RecordingFile(file)) {
            while (in.hasMoreEvents()) {
                RecordedEvent e = in.readEvent();
                if (e.getEventType().getName().equals("jdk.InitialSystemProperty")) {
                    values.add(e.getString("value"));
                }
            }
        }
        return values;
    }
}
