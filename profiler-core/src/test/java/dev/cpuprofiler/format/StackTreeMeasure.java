package dev.cpuprofiler.format;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.stack.Stacks;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import dev.cpuprofiler.fixtures.CountingOutputStream;
import dev.cpuprofiler.fixtures.RealisticStacks;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Random;

/**
 * Not a test: prints how fast {@link StackTree} merges realistic stacks and how many bytes a node takes.
 * Run: {@code mvn -q -pl profiler-core -am test-compile} then, with
 * {@code CP=profiler-core/target/classes:profiler-core/target/test-classes:profiler-test-fixtures/target/classes},
 * {@code java -cp $CP:$(cat cp.txt) dev.cpuprofiler.internal.stack.StackTreeMeasure}.
 *
 * <p>Stacks: the benchmarks' {@link RealisticStacks} (a shared trunk, one of 120 endpoints, one of 120 library leaf
 * chains), 4000 distinct stacks, 30 to 80 frames deep, drawn with a skewed (Zipf-like) distribution, on 40 thread
 * names: the same stacks as {@code StackTreeMergeBenchmark}'s.
 */
public final class StackTreeMeasure {

    private static final int DISTINCT = 4000;

    private StackTreeMeasure() {
    }

    public static void main(String[] args) throws Exception {
        RealisticStacks<Frame> realistic = RealisticStacks.generate(DISTINCT, 2024,
                (name, kind) -> new Frame(name, FrameKind.valueOf(kind.name())));
        List<List<Frame>> stacks = realistic.stacks();
        Random random = new Random(2024);
        int[] picks = new int[200_000];
        for (int i = 0; i < picks.length; i++) {
            picks[i] = RealisticStacks.zipf(random, DISTINCT);
        }
        String[] threads = new String[40];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = realistic.thread(i);
        }
        long frames = 0;
        int minDepth = Integer.MAX_VALUE;
        int maxDepth = 0;
        for (List<Frame> s : stacks) {
            minDepth = Math.min(minDepth, s.size());
            maxDepth = Math.max(maxDepth, s.size());
        }
        for (int pick : picks) {
            frames += stacks.get(pick).size();
        }
        System.out.printf(Locale.ROOT, "%d distinct stacks, depth %d..%d, %d samples per pass (%.1f frames/sample)%n",
                DISTINCT, minDepth, maxDepth, picks.length, frames / (double) picks.length);

        // Warm up the JIT.
        for (int i = 0; i < 5; i++) {
            merge(stacks, picks, threads, false);
            merge(stacks, picks, threads, true);
        }
        report("same Frame objects, no thread grouping", stacks, picks, threads, false, frames);
        report("same Frame objects, grouped by thread", stacks, picks, threads, true, frames);
        freshStrings(stacks, picks, threads, random);
        footprint(stacks, picks, threads);
        renders(stacks, picks, threads);
    }

    private static void report(String label, List<List<Frame>> stacks, int[] picks, String[] threads, boolean byThread,
            long frames) {
        double best = 0;
        StackTree tree = null;
        for (int run = 0; run < 7; run++) {
            long start = System.nanoTime();
            tree = merge(stacks, picks, threads, byThread);
            double seconds = (System.nanoTime() - start) / 1e9;
            best = Math.max(best, frames / seconds);
        }
        System.out.printf(Locale.ROOT, "merge rate (%s): %.1f M frames/s (best of 7; %.2f M samples/s), %d nodes%n",
                label, best / 1e6, best / 1e6 / (frames / (double) picks.length), tree.nodeCount());
    }

    /** Worst case for the name cache: every sample's frame names are new String objects (hash not yet computed). */
    private static void freshStrings(List<List<Frame>> stacks, int[] picks, String[] threads, Random random) {
        int samples = 40_000;
        double best = 0;
        for (int run = 0; run < 5; run++) {
            List<List<Frame>> fresh = new ArrayList<>(samples);
            long frames = 0;
            for (int i = 0; i < samples; i++) {
                List<Frame> source = stacks.get(picks[random.nextInt(picks.length)]);
                List<Frame> copy = new ArrayList<>(source.size());
                for (Frame f : source) {
                    copy.add(new Frame(new String(f.name()), f.kind()));
                }
                frames += copy.size();
                fresh.add(copy);
            }
            StackTree tree = new StackTree(512, 200_000, false);
            long start = System.nanoTime();
            for (int i = 0; i < samples; i++) {
                tree.accept(fresh.get(i), threads[i % threads.length], 1);
            }
            best = Math.max(best, frames / ((System.nanoTime() - start) / 1e9));
        }
        System.out.printf(Locale.ROOT, "merge rate (fresh String per frame, worst case): %.1f M frames/s%n", best / 1e6);
    }

    private static void footprint(List<List<Frame>> stacks, int[] picks, String[] threads) throws Exception {
        long before = usedAfterGc();
        StackTree tree = merge(stacks, picks, threads, true);
        long after = usedAfterGc();
        int nodes = tree.nodeCount();
        System.out.printf(Locale.ROOT, "tree: %d nodes%n", nodes);
        System.out.printf(Locale.ROOT, "bytes per node, from the structure (node arrays + child index): %.1f%n",
                tree.nodeFootprintBytes() / (double) nodes);
        System.out.printf(Locale.ROOT, "bytes per node, from the structure incl. frame table: %.1f%n",
                (tree.nodeFootprintBytes() + tree.frameTableFootprintBytes()) / (double) nodes);
        System.out.printf(Locale.ROOT, "bytes per node, heap delta after GC (whole StackTree): %.1f%n",
                (after - before) / (double) nodes);
        long beforeSnapshot = usedAfterGc();
        StackTreeSnapshot snapshot = tree.snapshot();
        long afterSnapshot = usedAfterGc();
        System.out.printf(Locale.ROOT, "bytes per node, heap delta after GC (StackTreeSnapshot): %.1f%n",
                (afterSnapshot - beforeSnapshot) / (double) snapshot.size());
        System.out.printf(Locale.ROOT, "tree: %d distinct frames%n", java.util.stream.IntStream.range(0,
                snapshot.size()).mapToObj(n -> snapshot.frame(n) + " " + snapshot.kind(n)).distinct().count());
        if (snapshot.totalSamples() != picks.length || tree.truncatedSamples() != 0) {
            throw new AssertionError("lost samples");
        }
    }

    private static void renders(List<List<Frame>> stacks, int[] picks, String[] threads) throws Exception {
        StackTree tree = merge(stacks, picks, threads, true);
        for (int i = 0; i < 3; i++) {
            tree.snapshot();
        }
        long start = System.nanoTime();
        StackTreeSnapshot snapshot = tree.snapshot();
        System.out.printf(Locale.ROOT, "snapshot of %d nodes: %.1f ms%n", snapshot.size(),
                (System.nanoTime() - start) / 1e6);
        Map<String, Draw> renderers = new LinkedHashMap<>();
        renderers.put("json", new JsonTreeRenderer()::render);
        renderers.put("text", new TextTreeRenderer()::render);
        renderers.put("collapsed", CollapsedFormat::write);
        renderers.put("html", new FlameGraphRenderer()::render);
        for (Map.Entry<String, Draw> renderer : renderers.entrySet()) {
            CountingOutputStream out = new CountingOutputStream();
            for (int i = 0; i < 3; i++) {
                renderer.getValue().render(snapshot, OutputStream.nullOutputStream());
            }
            start = System.nanoTime();
            renderer.getValue().render(snapshot, out);
            System.out.printf(Locale.ROOT, "render %-24s %7.1f ms, %6.2f MB%n", renderer.getKey(),
                    (System.nanoTime() - start) / 1e6, out.count() / 1e6);
        }
    }

    private static StackTree merge(List<List<Frame>> stacks, int[] picks, String[] threads, boolean byThread) {
        StackTree tree = new StackTree(512, 200_000, byThread);
        for (int i = 0; i < picks.length; i++) {
            tree.accept(stacks.get(picks[i]), threads[i % threads.length], 1);
        }
        return tree;
    }

    private static long usedAfterGc() throws InterruptedException {
        Runtime runtime = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }

    private interface Draw {
        void render(StackTreeSnapshot tree, OutputStream out) throws java.io.IOException;
    }
}