package dev.cpuprofiler.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The state machine every engine's recording shares: stop once, cancel once, a failure kept and thrown again. */
class OnceStoppedRecordingTest {

    @TempDir
    Path dir;

    private Path file;
    private Scripted recording;

    @BeforeEach
    void createRecording() throws IOException {
        file = Files.createFile(dir.resolve("r.jfr"));
        recording = new Scripted(file);
    }

    @Test
    void stopReadsBackOnceAndThenReturnsTheSameResult() {
        recording.live = 7;

        assertThat(recording.samplesSoFar()).isEqualTo(7);
        EngineRecording.Result first = recording.stop();
        EngineRecording.Result second = recording.stop();
        recording.cancel();

        assertThat(second).isSameAs(first);
        assertThat(first.samples()).isEqualTo(42);
        assertThat(recording.samplesSoFar()).isEqualTo(42);
        assertThat(recording.calls).containsExactly("count", "halt", "read");
        assertThat(first.jfrFile()).as("the file belongs to the caller after stop").isRegularFile();
    }

    @Test
    void cancelDiscardsOnceDeletesTheFileAndALaterStopIsEmpty() {
        recording.live = 5;
        recording.samplesSoFar();

        recording.cancel();
        recording.cancel();
        recording.live = 9;
        long afterCancelCount = recording.samplesSoFar();
        EngineRecording.Result afterCancel = recording.stop();

        assertThat(file).doesNotExist();
        assertThat(afterCancelCount).as("the last count seen: the engine is not asked once cancelled").isEqualTo(5);
        assertThat(recording.calls).containsExactly("count", "discard");
        assertThat(afterCancel).isEqualTo(new EngineRecording.Result("scripted", "not read", 0, 0, null,
                List.of(OnceStoppedRecording.CANCELLED_NOTE), List.of()));
        assertThat(recording.stop()).isSameAs(afterCancel);
    }

    @Test
    void aCancelThatThrowsStillDeletesTheFile() {
        recording.discardFailure = new IllegalStateException("closed already");

        assertThatThrownBy(recording::cancel).isSameAs(recording.discardFailure);
        recording.cancel();

        assertThat(file).doesNotExist();
        assertThat(recording.calls).containsExactly("discard");
    }

    @Test
    void aFailureToHaltDeletesTheFileAndIsThrownAgainByEveryStop() {
        recording.live = 3;
        recording.samplesSoFar();
        recording.haltFailure = new IOException("disk full");

        EngineRecording.FailureException failure = catchFailure(recording);
        recording.cancel();

        assertThat(failure).hasMessage("scripted could not halt").hasCause(recording.haltFailure);
        assertThat(catchFailure(recording)).isSameAs(failure);
        assertThat(file).doesNotExist();
        assertThat(recording.calls).containsExactly("count", "halt");
        assertThat(recording.samplesSoFar()).as("the last count seen").isEqualTo(3);
    }

    @Test
    void aFailureToReadBackKeepsTheFileAndIsThrownAgainByEveryStop() {
        recording.readFailure = new IllegalArgumentException("bad chunk");

        EngineRecording.FailureException failure = catchFailure(recording);
        recording.cancel();

        assertThat(failure).hasMessage("scripted could not read " + file).hasCause(recording.readFailure);
        assertThat(catchFailure(recording)).isSameAs(failure);
        assertThat(file).as("kept for whoever wants to look at it").isRegularFile();
        assertThat(recording.calls).containsExactly("halt", "read");
    }

    private static EngineRecording.FailureException catchFailure(EngineRecording recording) {
        try {
            recording.stop();
        } catch (EngineRecording.FailureException e) {
            return e;
        }
        throw new AssertionError("stop did not fail");
    }

    /** Does what each test scripts and lists which steps the base class asked for. */
    private static final class Scripted extends OnceStoppedRecording {

        final List<String> calls = new ArrayList<>();
        long live;
        Exception haltFailure;
        RuntimeException readFailure;
        RuntimeException discardFailure;

        Scripted(Path file) {
            super("scripted", "not read", file);
        }

        @Override
        long liveCount() {
            calls.add("count");
            return live;
        }

        @Override
        void halt() throws Exception {
            calls.add("halt");
            if (haltFailure != null) {
                throw haltFailure;
            }
        }

        @Override
        String haltFailure() {
            return "scripted could not halt";
        }

        @Override
        EngineRecording.Result readBack() {
            calls.add("read");
            if (readFailure != null) {
                throw readFailure;
            }
            return new EngineRecording.Result("scripted", "read", 42, 1, file(), List.of(), List.of());
        }

        @Override
        String readFailure() {
            return "scripted could not read " + file();
        }

        @Override
        void discard() {
            calls.add("discard");
            if (discardFailure != null) {
                throw discardFailure;
            }
        }
    }
}
