package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.fixtures.RealisticStacks;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.internal.stack.StackTree;
import java.util.ArrayList;
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
 * <li>{@code names=shared}: the same Frame objects every time (names' hashes cached).</li>
 * <li>{@code names=fresh}: each sample's frames are rebuilt with new name Strings just before it is merged, as the
 * JFR engines do ({@code JfrStackConverter} concatenates class and method name per frame). The score includes
 * that copy; {@link FreshNamesCostBenchmark} measures the copy alone, and the harness reports the merge's own
 * rate as the difference.</li>
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

    private RealisticStacks<Frame> stacks;
    private List<List<Frame>> samples;
    private StackTree steadyTree;
    private boolean fresh;
    private boolean steady;

    @Setup(Level.Trial)
    public void setUp() {
        stacks = realisticStacks(4000, 2024);
        RealisticStacks.Batch<Frame> batch = stacks.batch(BATCH_FRAMES, 7);
        if (batch.frames() != BATCH_FRAMES) {
            throw new IllegalStateException("batch has " + batch.frames() + " frames");
        }
        samples = batch.samples();
        fresh = "fresh".equals(names);
        steady = "steady".equals(tree);
        steadyTree = newTree();
        for (List<Frame> s : stacks.stacks()) {
            steadyTree.accept(s, null, 1);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH_FRAMES)
    public long merge() {
        StackTree t = steady ? steadyTree : newTree();
        List<List<Frame>> batch = samples;
        for (int i = 0, n = batch.size(); i < n; i++) {
            List<Frame> s = batch.get(i);
            t.accept(fresh ? freshCopy(s) : s, stacks.thread(i), 1);
        }
        return t.totalSamples();
    }

    /** The stack with every name a new String (no cached hash), as an engine decoding an event makes it. */
    static List<Frame> freshCopy(List<Frame> stack) {
        List<Frame> copy = new ArrayList<>(stack.size());
        for (int j = 0, m = stack.size(); j < m; j++) {
            Frame f = stack.get(j);
            copy.add(new Frame(new String(f.name().toCharArray()), f.kind()));
        }
        return copy;
    }

    /** The shared {@link RealisticStacks} as the product's frames. */
    static RealisticStacks<Frame> realisticStacks(int distinct, long seed) {
        return RealisticStacks.generate(distinct, seed, (name, kind) -> new Frame(name, FrameKind.valueOf(kind.name())));
    }

    static StackTree newTree() {
        return new StackTree(512, 200_000, false);
    }

    /** What {@code names=fresh} adds to each merge: rebuilding every sample's frames with new Strings, nothing else. */
    @State(Scope.Thread)
    @BenchmarkMode(Mode.Throughput)
    @OutputTimeUnit(TimeUnit.SECONDS)
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 5, time = 1)
    @Fork(1)
    public static class FreshNamesCostBenchmark {

        private List<List<Frame>> samples;

        @Setup(Level.Trial)
        public void setUp() {
            samples = realisticStacks(4000, 2024).batch(BATCH_FRAMES, 7).samples();
        }

        @Benchmark
        @OperationsPerInvocation(BATCH_FRAMES)
        public long copyOnly() {
            long sum = 0;
            for (int i = 0, n = samples.size(); i < n; i++) {
                List<Frame> c = freshCopy(samples.get(i));
                sum += c.get(c.size() - 1).name().length();
            }
            return sum;
        }
    }
}
