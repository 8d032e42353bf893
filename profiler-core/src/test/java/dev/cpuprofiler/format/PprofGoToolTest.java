package dev.cpuprofiler.format;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cpuprofiler.internal.engine.EngineRecording;
import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.engine.EnginesHere;
import dev.cpuprofiler.fixtures.SplitWorkload;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.internal.testing.SplitWorkloadRunning;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real consumer: {@code go tool pprof} reads a pprof written from a real recording of the 60/30/10 workload and
 * finds {@code hotSixty} at its true share of the worker's CPU time (within 6 points), selecting the worker by its
 * {@code thread} label. Skipped, with the reason printed, where Go is not installed ({@code .ci/run} installs it).
 */
class PprofGoToolTest {

    private static final Duration RECORDING = Duration.ofSeconds(5);
    private static final double TOLERANCE_POINTS = 6;
    private static final String HOT = SplitWorkload.class.getName() + ".hotSixty";

    @RegisterExtension
    static final SplitWorkloadRunning WORKLOAD = new SplitWorkloadRunning();

    @TempDir
    Path workDirectory;

    @Test
    void goToolPprofFindsTheHotMethodAtItsShare() throws Exception {
        String go = goVersion();
        if (go == null) {
            System.out.println("[pprof-cli] skipped: 'go' is not on the PATH (install golang-go to run it)");
        }
        Assumptions.assumeTrue(go != null, "'go' is not on the PATH (install golang-go to run it)");

        String engineId = EnginesHere.autoExpected();
        StackTree tree = new StackTree(256, 100_000, true);
        Instant startedAt = Instant.now();
        EngineRecording recording = EnginesHere.create(engineId)
                .start(EngineSettings.of(Duration.ofMillis(10), 256, workDirectory), tree);
        SplitWorkload.CpuSplit before = WORKLOAD.workload().snapshot();
        Thread.sleep(RECORDING.toMillis());
        SplitWorkload.CpuSplit truth = WORKLOAD.workload().snapshot().minus(before);
        EngineRecording.Result result = recording.stop();
        Profile profile = ProfileBuilder.profile("20260101T000000Z-manual-1", SessionTrigger.MANUAL, tree.snapshot())
                .engine(EngineChoice.fromId(result.engineId()), result.engineDetail()).notes(result.notes())
                .between(startedAt, Instant.now()).lostSamples(result.lostSamples()).build();
        Path pprof = workDirectory.resolve(profile.id() + ".pb.gz");
        Files.write(pprof, Written.pprof(profile, LookbackView.INCLUDE));

        String top = run(List.of("go", "tool", "pprof", "-top", "-nodecount=200",
                "-tagfocus=thread=^" + SplitWorkload.WORKER + "$", pprof.toString()));
        System.out.printf("[pprof-cli] %s, %s (%s), truth hotSixty %.1f%%:%n%s%n", go, engineId,
                result.engineDetail(), truth.percent(truth.hot()), top);

        // "      flat  flat%   sum%        cum   cum%" then one line per function.
        Matcher line = Pattern.compile("(?m)^\\s*\\S+\\s+\\S+%\\s+\\S+%\\s+\\S+\\s+([\\d.]+)%\\s+"
                + Pattern.quote(HOT) + "\\s*$").matcher(top);
        assertThat(line.find()).as("a line for %s in go tool pprof -top:%n%s", HOT, top).isTrue();
        double share = Double.parseDouble(line.group(1));
        assertThat(truth.percent(truth.hot())).as("workload's own hotSixty share").isCloseTo(60, within(4.0));
        assertThat(share).as("hotSixty's cum%% in go tool pprof").isCloseTo(truth.percent(truth.hot()),
                within(TOLERANCE_POINTS));
    }

    /** {@code go version}'s output, or null when there is no working {@code go}. */
    static String goVersion() {
        try {
            return run(List.of("go", "version")).strip();
        } catch (IOException | RuntimeException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(command + " did not finish in 120 s");
        }
        String text = new String(output, StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IllegalStateException(command + " exited with " + process.exitValue() + ":\n" + text);
        }
        return text;
    }
}
