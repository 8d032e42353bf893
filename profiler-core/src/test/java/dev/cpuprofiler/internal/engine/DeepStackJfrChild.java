package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.EngineChoice;

import dev.cpuprofiler.internal.core.DefaultCpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.fixtures.DeepBurner;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.internal.stack.StackTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own (JFR's stack depth is settled once per JVM, before JFR starts): profiles a thread 4000
 * frames deep with each JFR engine given as an argument, max-stack-depth 8192, through the real {@link CpuProfiler},
 * and prints one {@code PROFILE} line per engine: the tree's depth, the deepest path to the burner's spin loop (its
 * length, its recursion frames, its first frame), the samples cut at the root and all samples, and the notes.
 */
public final class DeepStackJfrChild {

    public static void main(String[] args) throws Exception {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setMaxStackDepth(8192);
        Path work = Files.createTempDirectory("deep-jfr");
        try (DeepBurner burner = new DeepBurner(Integer.getInteger("deep.depth", 4000), false).start()) {
            for (String engine : args) {
                options.setEngine(EngineChoice.fromId(engine));
                try (DefaultCpuProfiler profiler = DefaultCpuProfiler.builder(options).workDirectory(work).build()) {
                    profiler.startOnDemand(Duration.ofSeconds(2)).outcome().toCompletableFuture()
                            .get(60, TimeUnit.SECONDS);
                    Profile p = profiler.store().latest().orElseThrow();
                    List<String> path = DeepSpinPath.deepest(p.tree());
                    StackTree.RootCut cut = StackTree.RootCut.of(p.tree());
                    System.out.println("PROFILE " + p.recording().engine() + " depth=" + p.tree().maxDepth()
                            + " spinPath=" + path.size() + " recurse=" + DeepSpinPath.count(path, DeepBurner.RECURSE) + " first="
                            + (path.isEmpty() ? "-" : path.get(0)) + " cut=" + cut.samples() + " samples="
                            + p.tree().totalSamples() + " notes=" + p.recording().notes());
                }
            }
        }
    }
}
