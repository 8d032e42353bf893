package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.fixtures.CountingOutputStream;
import dev.cpuprofiler.fixtures.RealisticStacks;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Each format's rendering of a profile whose merged tree has about 100 000 nodes (realistic stacks, grouped by thread
 * so the tree is wide as well as deep), as the endpoint serves a full profile: JSON (its figures and the whole tree),
 * text (its summary, everything shown), collapsed stacks, and the HTML flame graph (no minimum width). Output goes to
 * a counting sink (the harness reports each rendering's size separately, see {@link #renderedBytes}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RenderBenchmark {

    public static final int TARGET_NODES = 100_000;

    @Param({"json", "text", "collapsed", "html"})
    public String format;

    private Profile profile;
    private ProfileFormat renderer;

    @Setup(Level.Trial)
    public void setUp() {
        profile = profile(tree(TARGET_NODES));
        renderer = ProfileFormat.of(format).orElseThrow(() -> new IllegalArgumentException(format));
    }

    /** A profile of that tree, as a session would store it. */
    public static Profile profile(StackTreeSnapshot tree) {
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        Profile.Recording recording = new Profile.Recording(EngineChoice.JFR_EXECUTION, null, List.of(), List.of(),
                start, start.plusSeconds(30), Duration.ofMillis(10), tree.totalSamples(), 0, null);
        return new Profile("bench", SessionTrigger.MANUAL, recording, tree, Profile.CpuUse.UNKNOWN,
                Profile.Requests.NONE, null, null, null, null);
    }

    /** A tree of at least {@code nodes} nodes (a few more: the last stack may add several). */
    public static StackTreeSnapshot tree(int nodes) {
        RealisticStacks<Frame> stacks = StackTreeMergeBenchmark.realisticStacks(20_000, 99);
        StackTree tree = new StackTree(512, 1_000_000, true);
        Random random = new Random(5);
        int i = 0;
        while (tree.nodeCount() < nodes) {
            tree.accept(stacks.stacks().get(RealisticStacks.zipf(random, stacks.stacks().size())),
                    stacks.thread(random.nextInt(40)), 1 + random.nextInt(5));
            if (++i > 50_000_000) {
                throw new IllegalStateException("tree stopped growing at " + tree.nodeCount() + " nodes");
            }
        }
        return tree.snapshot();
    }

    @Benchmark
    public long render() throws IOException {
        CountingOutputStream out = new CountingOutputStream();
        renderer.write(profile, ProfileView.FULL, out);
        return out.count();
    }

    /** The size of each rendering, for the report (the harness calls it once). */
    public static long renderedBytes(Profile profile, ProfileFormat format) throws IOException {
        CountingOutputStream out = new CountingOutputStream();
        format.write(profile, ProfileView.FULL, out);
        return out.count();
    }
}
