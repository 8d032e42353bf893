package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.fixtures.CountingOutputStream;
import dev.cpuprofiler.fixtures.RealisticStacks;
import dev.cpuprofiler.internal.stack.CollapsedStacksRenderer;
import dev.cpuprofiler.internal.stack.FlameGraphRenderer;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.JsonTreeRenderer;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.stack.StackTreeRenderer;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.internal.stack.TextTreeRenderer;
import java.io.IOException;
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
 * Each rendering of a merged tree of about 100 000 nodes (realistic stacks, grouped by thread so the tree is wide
 * as well as deep), with the settings the endpoint uses for a full profile: JSON (whole tree), indented text
 * (everything shown), collapsed stacks, and the HTML flame graph (no minimum width). Output goes to a counting
 * sink (the harness reports each rendering's size separately, see {@link #renderedBytes}).
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

    private StackTreeSnapshot snapshot;
    private StackTreeRenderer renderer;

    @Setup(Level.Trial)
    public void setUp() {
        snapshot = tree(TARGET_NODES);
        renderer = switch (format) {
            case "json" -> new JsonTreeRenderer();
            case "text" -> new TextTreeRenderer();
            case "collapsed" -> new CollapsedStacksRenderer();
            case "html" -> new FlameGraphRenderer("CPU profile", 0);
            default -> throw new IllegalArgumentException(format);
        };
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
        renderer.render(snapshot, out);
        return out.count();
    }

    /** The size of each rendering, for the report (the harness calls it once). */
    public static long renderedBytes(StackTreeSnapshot tree, StackTreeRenderer renderer) throws IOException {
        CountingOutputStream out = new CountingOutputStream();
        renderer.render(tree, out);
        return out.count();
    }
}
