package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.fixtures.SplitWorkload;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.internal.testing.SplitWorkloadRunning;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Start, progress, stop, cancel, frame names and stack depth, for every engine that can run here. */
class EngineLifecycleTest {

    @RegisterExtension
    static final SplitWorkloadRunning WORKLOAD = new SplitWorkloadRunning();

    @TempDir
    Path workDirectory;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {JfrCpuTimeEngine.ID, AsyncProfilerEngine.ID, JfrExecutionEngine.ID})
    void progressShowsWhileRecordingStopIsIdempotentAndJavaFramesAreNamedByClassAndMethod(String engineId)
            throws Exception {
        EnginesHere.assumeJudgedHere(engineId);
        CollectingSink sink = new CollectingSink();
        EngineRecording recording = EnginesHere.create(engineId).start(settings(256), sink);

        Thread.sleep(2_500); // JFR writes its buffers out about once a second
        long soFar = recording.samplesSoFar();
        EngineRecording.Result first = recording.stop();
        long delivered = sink.totalWeight();
        EngineRecording.Result second = recording.stop();

        assertThat(soFar).as("samples so far after 2.5 s").isGreaterThan(0);
        assertThat(first.samples()).isGreaterThanOrEqualTo(soFar / 2).isEqualTo(delivered);
        assertThat(second).as("second stop").isEqualTo(first);
        assertThat(sink.totalWeight()).as("nothing delivered twice").isEqualTo(delivered);
        assertThat(recording.samplesSoFar()).isEqualTo(first.samples());
        assertThat(first.jfrFile()).isRegularFile().hasParent(workDirectory);
        assertThat(first.engineDetail()).isNotBlank();

        // The same recording's frames (a recording of its own cost 1.5 s more per engine): Java frames are named by
        // class and method and kinded as Java, and every stack is rooted in Thread.run.
        List<Frame> workloadFrames = sink.samples().stream()
                .filter(s -> SplitWorkload.WORKER.equals(s.thread()))
                .flatMap(s -> s.frames().stream())
                .filter(f -> f.name().startsWith("dev.cpuprofiler.fixtures.SplitWorkload."))
                .toList();
        assertThat(workloadFrames).isNotEmpty()
                .allSatisfy(f -> assertThat(f.kind()).isIn(FrameKind.JAVA, FrameKind.INLINED));
        assertThat(workloadFrames).extracting(Frame::name)
                .contains("dev.cpuprofiler.fixtures.SplitWorkload.hotSixty",
                        "dev.cpuprofiler.fixtures.SplitWorkload.crunch");
        assertThat(sink.samples().stream().filter(s -> SplitWorkload.WORKER.equals(s.thread())))
                .allSatisfy(s -> assertThat(s.frames().get(0).name()).isEqualTo("java.lang.Thread.run"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {JfrCpuTimeEngine.ID, AsyncProfilerEngine.ID, JfrExecutionEngine.ID})
    void cancelDeliversNothingAndLeavesNoFile(String engineId) throws Exception {
        EnginesHere.assumeJudgedHere(engineId);
        CollectingSink sink = new CollectingSink();
        EngineRecording recording = EnginesHere.create(engineId).start(settings(256), sink);

        Thread.sleep(1_200);
        recording.cancel();
        recording.cancel();

        assertThat(sink.samples()).isEmpty();
        try (Stream<Path> files = Files.list(workDirectory)) {
            assertThat(files.filter(f -> f.toString().endsWith(".jfr"))).isEmpty();
        }
        EngineRecording.Result afterCancel = recording.stop();
        assertThat(afterCancel.samples()).isZero();
        assertThat(afterCancel.jfrFile()).isNull();
        assertThat(sink.samples()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {JfrCpuTimeEngine.ID, AsyncProfilerEngine.ID, JfrExecutionEngine.ID})
    void deepStacksKeepTheirLeavesAndAreMarkedAsCut(String engineId) throws Exception {
        EnginesHere.assumeJudgedHere(engineId);
        CollectingSink sink = new CollectingSink();
        EngineRecording recording = EnginesHere.create(engineId).start(settings(3), sink);

        Thread.sleep(1_500);
        EngineRecording.Result result = recording.stop();

        List<CollectingSink.Sample> worker = sink.samples().stream()
                .filter(s -> SplitWorkload.WORKER.equals(s.thread())).toList();
        assertThat(worker).isNotEmpty();
        // Cut at the root, but for a stack shallow enough to keep whole: caught between two calls, the worker is
        // only Thread.run > its run > crunch (one async-profiler sample in a CI run).
        Frame root = Frame.java("java.lang.Thread.run");
        assertThat(worker).allSatisfy(s -> {
            assertThat(s.frames()).hasSizeLessThanOrEqualTo(4);
            assertThat(s.frames().get(0)).isIn(JfrStackConverter.TRUNCATED, root);
            if (s.frames().get(0).equals(root)) {
                assertThat(s.frames()).hasSizeLessThanOrEqualTo(3);
            }
        });
        assertThat(worker.stream().filter(s -> s.frames().get(0).equals(JfrStackConverter.TRUNCATED)))
                .as("samples cut at the root").hasSizeGreaterThan(worker.size() / 2);
        // The leaf survives the cut: the hot loop is still where the time went.
        assertThat(worker.stream().filter(s -> last(s.frames()).name().endsWith("SplitWorkload.crunch")))
                .hasSizeGreaterThan(worker.size() / 2);
        assertThat(result.notes()).anyMatch(n -> n.contains("[truncated]"));
    }

    private EngineSettings settings(int maxStackDepth) {
        return EngineSettings.of(Duration.ofMillis(10), maxStackDepth, workDirectory);
    }

    private static Frame last(List<Frame> frames) {
        return frames.get(frames.size() - 1);
    }
}
