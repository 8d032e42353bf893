package dev.cpuprofiler.session.engine;

import dev.cpuprofiler.stack.StackTreeSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A thread that recurses a given number of frames deep and then burns CPU at the bottom, on a 64 MB stack. Each
 * level is one frame of {@link #recurse} (or of {@link #recurseFat}, whose frames are about 700 bytes each, so the
 * stack's bytes rather than its frame count hit a limit first); the frames above the recursion are the thread's own
 * ({@code Thread.run} and the lambda).
 */
final class DeepBurner implements AutoCloseable {

    static final String RECURSE = DeepBurner.class.getName() + ".recurse";
    static final String RECURSE_FAT = DeepBurner.class.getName() + ".recurseFat";
    static final String SPIN = DeepBurner.class.getName() + ".spin";

    private final Thread thread;
    private final CountDownLatch deep = new CountDownLatch(1);
    private volatile boolean stop;
    volatile long sink;

    /**
     * @param depth recursion levels (frames of recurse or recurseFat)
     * @param fat whether each level's frame is large
     */
    DeepBurner(int depth, boolean fat) {
        thread = new Thread(null, () -> sink = fat ? recurseFat(depth, 1, 2, 3) : recurse(depth),
                "deep-burner-" + depth, 64L << 20);
        thread.setDaemon(true);
    }

    DeepBurner start() throws InterruptedException {
        thread.start();
        deep.await();
        return this;
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.join(10_000);
    }

    private long recurse(int depth) {
        if (depth > 1) {
            return recurse(depth - 1) + 1;
        }
        return spin();
    }

    /** Eight live long locals and three parameters: an interpreted frame several times an ordinary one. */
    private long recurseFat(int depth, long a, long b, long c) {
        long d = a * 3 + b;
        long e = b * 5 + c;
        long f = c * 7 + a;
        long g = d ^ e;
        long h = e ^ f;
        long i = f ^ d;
        long j = g + h + i;
        long k = j * 31;
        if (depth > 1) {
            return recurseFat(depth - 1, e, f, g) + a + b + c + d + e + f + g + h + i + j + k;
        }
        return spin() + k;
    }

    private long spin() {
        deep.countDown();
        long x = 0;
        while (!stop) {
            x = burn(x);
        }
        return x;
    }

    /** The CPU work, in a method of its own called in the loop: a tight loop alone JFR's sampler often skips. */
    private static long burn(long x) {
        for (int i = 0; i < 10_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        return x;
    }

    /**
     * The frames, root first, of the tree's deepest path that ends in {@link #SPIN} (with or without a leading
     * {@code [truncated]}), or an empty list.
     */
    static List<String> deepestSpinPath(StackTreeSnapshot tree) {
        int best = -1;
        for (int node = 0; node < tree.size(); node++) {
            if (tree.frame(node).equals(SPIN) && (best < 0 || tree.depth(node) > tree.depth(best))) {
                best = node;
            }
        }
        List<String> path = new ArrayList<>();
        for (int node = best; node > 0; node = tree.parent(node)) {
            path.add(0, tree.frame(node));
        }
        return path;
    }

    static long count(List<String> path, String frame) {
        return path.stream().filter(frame::equals).count();
    }
}
