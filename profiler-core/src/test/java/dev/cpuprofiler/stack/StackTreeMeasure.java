package dev.cpuprofiler.stack;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Not a test: prints how fast {@link StackTree} merges realistic stacks and how many bytes a node takes.
 * Run: {@code mvn -q -pl profiler-core test-compile} then
 * {@code java -cp profiler-core/target/classes:profiler-core/target/test-classes:$(cat cp.txt)
 * dev.cpuprofiler.stack.StackTreeMeasure}.
 *
 * <p>Stacks: a shared trunk (thread start, server, filters), one of 60 endpoints with its own chain of frames,
 * then one of 80 library leaf chains; 4000 distinct stacks, 30 to 80 frames deep, drawn with a skewed
 * (Zipf-like) distribution, on 40 thread names.
 */
public final class StackTreeMeasure {

    private static final int DISTINCT = 4000;

    private StackTreeMeasure() {
    }

    public static void main(String[] args) throws Exception {
        Random random = new Random(2024);
        List<List<Frame>> stacks = distinctStacks(random);
        int[] picks = new int[200_000];
        for (int i = 0; i < picks.length; i++) {
            picks[i] = zipf(random, DISTINCT);
        }
        String[] threads = new String[40];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = i < 30 ? "http-nio-8080-exec-" + (i + 1) : "pool-2-thread-" + (i - 29);
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
        System.out.printf(Locale.ROOT, "tree: %d nodes, %d distinct frames%n", nodes, tree.frameCount());
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
        for (StackTreeRenderer renderer : List.of(new JsonTreeRenderer(), new TextTreeRenderer(),
                new CollapsedStacksRenderer(), new FlameGraphRenderer())) {
            CountingStream out = new CountingStream();
            for (int i = 0; i < 3; i++) {
                renderer.render(snapshot, OutputStream.nullOutputStream());
            }
            start = System.nanoTime();
            renderer.render(snapshot, out);
            System.out.printf(Locale.ROOT, "render %-24s %7.1f ms, %6.2f MB%n", renderer.getClass().getSimpleName(),
                    (System.nanoTime() - start) / 1e6, out.count / 1e6);
        }
    }

    private static StackTree merge(List<List<Frame>> stacks, int[] picks, String[] threads, boolean byThread) {
        StackTree tree = new StackTree(512, 200_000, byThread);
        for (int i = 0; i < picks.length; i++) {
            tree.accept(stacks.get(picks[i]), threads[i % threads.length], 1);
        }
        return tree;
    }

    private static List<List<Frame>> distinctStacks(Random random) {
        List<Frame> trunk = chain("org.apache.tomcat.util.net", 22, random);
        trunk.add(0, Frame.java("java.lang.Thread.run"));
        List<List<Frame>> endpoints = new ArrayList<>();
        for (int e = 0; e < 60; e++) {
            endpoints.add(chain("com.example.shop.endpoint" + e, 5 + random.nextInt(20), random));
        }
        List<List<Frame>> leaves = new ArrayList<>();
        for (int l = 0; l < 80; l++) {
            List<Frame> leaf = chain("org.library" + l % 9 + ".impl", 2 + random.nextInt(20), random);
            if (l % 10 == 0) {
                leaf.add(new Frame("__memmove_avx_unaligned_erms", FrameKind.NATIVE));
            }
            leaves.add(leaf);
        }
        List<List<Frame>> stacks = new ArrayList<>();
        java.util.Set<Long> used = new java.util.HashSet<>();
        while (stacks.size() < DISTINCT) {
            int e = random.nextInt(endpoints.size());
            int l = random.nextInt(leaves.size());
            int middle = random.nextInt(4);
            if (!used.add((long) e << 32 | l << 4 | middle)) {
                continue;
            }
            List<Frame> stack = new ArrayList<>(trunk);
            stack.addAll(endpoints.get(e));
            for (int m = 0; m < middle; m++) {
                stack.add(Frame.java("com.example.shop.support.Helper" + m + ".call"));
            }
            stack.addAll(leaves.get(l));
            if (stack.size() >= 30 && stack.size() <= 80) {
                stacks.add(List.copyOf(stack));
            } else {
                used.remove((long) e << 32 | l << 4 | middle);
            }
        }
        return stacks;
    }

    private static List<Frame> chain(String pkg, int length, Random random) {
        List<Frame> frames = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            String cls = pkg + ".Component" + random.nextInt(1000);
            String method = random.nextInt(12) == 0 ? "lambda$process$" + i : "process" + random.nextInt(50);
            frames.add(random.nextInt(8) == 0 ? new Frame(cls + "." + method, FrameKind.INLINED)
                    : Frame.java(cls + "." + method));
        }
        return frames;
    }

    /** Index in [0, n) with probability roughly proportional to 1/(rank+1). */
    private static int zipf(Random random, int n) {
        double harmonic = Math.log(n) + 0.5772;
        double u = random.nextDouble() * harmonic;
        int rank = (int) Math.min(n - 1, Math.exp(u - 0.5772 * random.nextDouble()) - 1);
        return Math.max(0, rank);
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

    private static final class CountingStream extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
