package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.stack.Frame;
import dev.cpuprofiler.stack.StackTree;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link StackTree#accept} on realistic stacks (4000 distinct, 30..80 frames, Zipf-like popularity, 40 threads),
 * in frames per second: one operation is one frame (each invocation merges a batch of exactly
 * {@value #BATCH_FRAMES} frames, about 6000 samples: a 30 s session of two busy threads at 10 ms).
 *
 * <ul>
 * <li>{@code tree=session}: a new tree per batch, so node creation is included: a whole session's merge.</li>
 * <li>{@code tree=steady}: one long-lived tree that already holds every stack (a long session's steady state).</li>
 * <li>{@code names=shared}: the same Frame objects every time (names' hashes cached);
 * {@code names=fresh}: every name a new String, as an engine decoding fresh events hands them over (worst case).</li>
 * </ul>
 * Tree limits are the product's defaults (depth 512, 200 000 nodes, not grouped by thread).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class StackTreeMergeBenchmark {

    public static final int BATCH_FRAMES = 300_000;

    @Param({"session", "steady"})
    public String tree;

    @Param({"shared", "fresh"})
    public String names;

    private RealisticStacks stacks;
    private RealisticStacks.Batch shared;
    private RealisticStacks.Batch batch;
    private StackTree steadyTree;

    @Setup(Level.Trial)
    public void setUp() {
        stacks = RealisticStacks.generate(4000, 2024);
        shared = stacks.batch(BATCH_FRAMES, 7);
        if (shared.frames() != BATCH_FRAMES) {
            throw new IllegalStateException("batch has " + shared.frames() + " frames");
        }
        steadyTree = newTree();
        for (List<Frame> s : stacks.stacks()) {
            steadyTree.accept(s, null, 1);
        }
        batch = shared;
    }

    @Setup(Level.Invocation)
    public void freshNames() {
        // Invocations take tens of milliseconds: the per-invocation setup's own cost is not measured.
        if ("fresh".equals(names)) {
            batch = shared.freshCopy();
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH_FRAMES)
    public long merge() {
        StackTree t = "steady".equals(tree) ? steadyTree : newTree();
        List<List<Frame>> samples = batch.samples();
        for (int i = 0, n = samples.size(); i < n; i++) {
            t.accept(samples.get(i), stacks.thread(i), 1);
        }
        return t.totalSamples();
    }

    private static StackTree newTree() {
        return new StackTree(512, 200_000, false);
    }
}
