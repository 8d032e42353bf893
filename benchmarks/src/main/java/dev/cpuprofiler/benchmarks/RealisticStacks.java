package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.stack.Frame;
import dev.cpuprofiler.stack.FrameKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * Stacks shaped like a web service's: a shared trunk (thread start, server, filters: 23 frames), one of 120
 * endpoints with its own chain (5..24 frames), 0..3 helper frames, then one of 120 library leaf chains (2..21
 * frames, some ending in a native frame). Only stacks 30..80 frames deep are kept. Frame names are realistic
 * lengths ({@code org.apache.tomcat.util.net.Component123.process7}); one frame in eight is marked inlined.
 * Deterministic for a given seed.
 */
public final class RealisticStacks {

    public static final int MIN_DEPTH = 30;
    public static final int MAX_DEPTH = 80;

    private final List<List<Frame>> stacks;
    private final String[] threads;

    private RealisticStacks(List<List<Frame>> stacks, String[] threads) {
        this.stacks = stacks;
        this.threads = threads;
    }

    /** {@code distinct} different stacks (at most about 57 000), 40 thread names. */
    public static RealisticStacks generate(int distinct, long seed) {
        Random random = new Random(seed);
        List<Frame> trunk = chain("org.apache.tomcat.util.net", 22, random);
        trunk.add(0, Frame.java("java.lang.Thread.run"));
        List<List<Frame>> endpoints = new ArrayList<>();
        for (int e = 0; e < 120; e++) {
            endpoints.add(chain("com.example.shop.endpoint" + e, 5 + random.nextInt(20), random));
        }
        List<List<Frame>> leaves = new ArrayList<>();
        for (int l = 0; l < 120; l++) {
            List<Frame> leaf = chain("org.library" + l % 9 + ".impl", 2 + random.nextInt(20), random);
            if (l % 10 == 0) {
                leaf.add(new Frame("__memmove_avx_unaligned_erms", FrameKind.NATIVE));
            }
            leaves.add(leaf);
        }
        List<List<Frame>> stacks = new ArrayList<>(distinct);
        Set<Long> used = new HashSet<>();
        int attempts = 0;
        while (stacks.size() < distinct) {
            if (++attempts > distinct * 50) {
                throw new IllegalArgumentException("cannot make " + distinct + " distinct stacks");
            }
            int e = random.nextInt(endpoints.size());
            int l = random.nextInt(leaves.size());
            int middle = random.nextInt(4);
            long key = (long) e << 32 | (long) l << 4 | middle;
            if (used.contains(key)) {
                continue;
            }
            List<Frame> stack = new ArrayList<>(trunk);
            stack.addAll(endpoints.get(e));
            for (int m = 0; m < middle; m++) {
                stack.add(Frame.java("com.example.shop.support.Helper" + m + ".call"));
            }
            stack.addAll(leaves.get(l));
            if (stack.size() >= MIN_DEPTH && stack.size() <= MAX_DEPTH) {
                used.add(key);
                stacks.add(List.copyOf(stack));
            }
        }
        String[] threads = new String[40];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = i < 30 ? "http-nio-8080-exec-" + (i + 1) : "pool-2-thread-" + (i - 29);
        }
        return new RealisticStacks(stacks, threads);
    }

    public List<List<Frame>> stacks() {
        return stacks;
    }

    public String thread(int i) {
        return threads[Math.floorMod(i, threads.length)];
    }

    /**
     * Indices of a batch of samples drawn with a skewed (Zipf-like) popularity whose frames add up to exactly
     * {@code frames}: the last sample is cut to a prefix of its stack so that the sum is exact.
     */
    public Batch batch(int frames, long seed) {
        Random random = new Random(seed);
        List<List<Frame>> samples = new ArrayList<>();
        int sum = 0;
        while (sum < frames) {
            List<Frame> stack = stacks.get(zipf(random, stacks.size()));
            int take = Math.min(stack.size(), frames - sum);
            samples.add(take == stack.size() ? stack : List.copyOf(stack.subList(0, take)));
            sum += take;
        }
        return new Batch(samples, sum);
    }

    /** A batch of sampled stacks, {@code frames} frames in all. */
    public record Batch(List<List<Frame>> samples, int frames) {
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
    static int zipf(Random random, int n) {
        double harmonic = Math.log(n) + 0.5772;
        double u = random.nextDouble() * harmonic;
        int rank = (int) Math.min(n - 1, Math.exp(u - 0.5772 * random.nextDouble()) - 1);
        return Math.max(0, rank);
    }
}
