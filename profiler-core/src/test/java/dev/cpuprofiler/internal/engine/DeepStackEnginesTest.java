package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.EngineChoice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.core.DefaultCpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.fixtures.DeepBurner;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.RunningSession;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.StackTreeSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real profile of a thread 4000 frames deep, through {@link CpuProfiler} with {@code max-stack-depth} 8192: the
 * async-profiler engine keeps the stack whole; deeper than it walks or than max-stack-depth, the profile says the
 * stack was cut ({@code [truncated]} at the root, counted as cut, a note) instead of passing a partial stack off as
 * whole. The JFR engines, which keep at most 2048 frames, are in {@link DeepStackJfrTest} (their depth is settled
 * once per JVM).
 */
class DeepStackEnginesTest {

    @TempDir
    Path work;

    @BeforeAll
    static void sigprofOrder() throws Exception {
        EnginesHere.letJfrInstallSigprofFirst();
    }

    @Test
    void asyncProfilerKeepsA4000FrameStackWhole() throws Exception {
        EnginesHere.assumeRunnable(AsyncProfilerEngine.ID);

        Profile profile = profile(4000, false);

        List<String> path = DeepSpinPath.deepest(profile.tree());
        System.out.println("[deep async-profiler 4000] deepest path " + path.size() + " frames, "
                + DeepSpinPath.count(path, DeepBurner.RECURSE) + " recurse; tree depth " + profile.tree().maxDepth()
                + ", cut " + StackTree.RootCut.of(profile.tree()) + ", notes " + profile.recording().notes());
        assertThat(DeepSpinPath.count(path, DeepBurner.RECURSE)).isEqualTo(4000);
        assertThat(path.get(0)).isEqualTo("java.lang.Thread.run");
        assertThat(path.size()).isGreaterThan(4000);
        assertThat(profile.tree().maxDepth()).isGreaterThanOrEqualTo(path.size());
    }

    @Test
    void asyncProfilerCutsBeyondMaxStackDepthAndSaysSo() throws Exception {
        EnginesHere.assumeRunnable(AsyncProfilerEngine.ID);

        Profile profile = profile(9000, false);

        List<String> path = DeepSpinPath.deepest(profile.tree());
        System.out.println("[deep async-profiler 9000] deepest path " + path.size() + " frames, "
                + DeepSpinPath.count(path, DeepBurner.RECURSE) + " recurse; cut " + StackTree.RootCut.of(profile.tree())
                + ", notes " + profile.recording().notes());
        // max-stack-depth entries: [truncated] and the 8191 leaf-most frames: burn, spin and 8189 levels, or, for a
        // sample taken in spin itself (between two calls of burn), spin and 8190 levels.
        assertThat(profile.tree().maxDepth()).isEqualTo(8192);
        assertThat(path).startsWith(StackTree.TRUNCATED);
        assertThat(path.size()).isBetween(8191, 8192);
        assertThat(DeepSpinPath.count(path, DeepBurner.RECURSE)).as("all but [truncated] and spin recurse")
                .isEqualTo(path.size() - 2);
        assertThat(StackTree.RootCut.of(profile.tree()).samples()).isPositive();
        assertThat(profile.recording().notes())
                .anyMatch(n -> n.contains("max-stack-depth 8192") && n.contains("[truncated]"));
    }

    @Test
    void asyncProfilerWalksAtMostAMegabyteOfStackAndTheProfileSaysWhenThatCutIt() throws Exception {
        EnginesHere.assumeRunnable(AsyncProfilerEngine.ID);

        Profile profile = profile(4000, true);

        List<String> path = DeepSpinPath.deepest(profile.tree());
        System.out.println("[deep async-profiler 4000 fat frames] deepest path " + path.size() + " frames, "
                + DeepSpinPath.count(path, DeepBurner.RECURSE_FAT) + " recurseFat; first " + path.subList(0, 2)
                + "; cut " + StackTree.RootCut.of(profile.tree()) + ", notes " + profile.recording().notes());
        assertThat(path).isNotEmpty();
        assertThat(DeepSpinPath.count(path, DeepBurner.RECURSE_FAT)).isLessThan(4000);
        assertThat(path.get(0)).isEqualTo(StackTree.TRUNCATED);
        assertThat(StackTree.RootCut.of(profile.tree()).samples()).isPositive();
        assertThat(profile.recording().notes()).anyMatch(n -> n.contains("stack walk stopped"));
    }

    private Profile profile(int depth, boolean fat) throws Exception {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setEngine(EngineChoice.ASYNC_PROFILER);
        options.setMaxStackDepth(8192);
        options.setStackSamplingPeriod(Duration.ofMillis(5));
        // Keep this JVM's JFR depth as it is: other tests settle it.
        JfrSetup untouched = new JfrSetup(arguments -> "Stack depth: 8192", () -> true);
        try (DeepBurner burner = new DeepBurner(depth, fat).start();
                DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options).workDirectory(work)
                        .engines(List.of(new AsyncProfilerEngine())).jfrSetup(untouched).build()) {
            RunningSession session = profiler.startOnDemand(Duration.ofSeconds(1));
            session.outcome().toCompletableFuture().get(60, TimeUnit.SECONDS);
            Profile profile = profiler.store().latest().orElseThrow();
            assertThat(profile.recording().engine().id()).isEqualTo(AsyncProfilerEngine.ID);
            StackTreeSnapshot tree = profile.tree();
            assertThat(tree.totalSamples()).isPositive();
            return profile;
        }
    }
}
