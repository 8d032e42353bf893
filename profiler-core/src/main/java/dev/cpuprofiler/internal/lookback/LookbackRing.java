package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.StackTreeSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * The rolling record: the window cut into {@value #BUCKETS} buckets of equal width, each a small {@link StackTree}
 * of the samples taken in it (placed by the sample's own time, not its late delivery). A bucket is dropped whole
 * once its start falls out of the window, so the ring never reaches back further than the window (it covers between
 * window minus one bucket width and the window) and never holds more than {@code BUCKETS + 1} trees. Each tree has
 * an equal share of the node budget; what does not fit lands in {@code [truncated]}, counted, so totals stay exact.
 * Weights are in the sessions' unit ({@link SampleWeigher}), ready for {@link StackTree#merge(StackTreeSnapshot)}.
 *
 * <p>Time is passed in, never read: the recorder passes its clock, tests pass what they like.
 */
final class LookbackRing {

    static final int BUCKETS = 10;
    /** The ring's node budget unless the sessions' own limit is smaller (README: what it takes in memory). */
    static final int MAX_TREE_NODES = 44_000;

    private final Duration window;
    private final Duration samplingPeriod;
    private final Duration weightUnit;
    private final int maxStackDepth;
    private final int maxTreeNodes;
    private final boolean groupByThread;
    private final long windowMillis;
    private final long widthMillis;
    private final int nodesPerBucket;
    private final Bucket[] slots;
    private final SampleWeigher weigher;
    private long newestIndex = Long.MIN_VALUE;
    private long dropped;

    /** What the ring held at one moment. */
    record Contents(Instant coveredFrom, long samples, long droppedSamples, StackTreeSnapshot tree) {
    }

    private static final class Bucket {
        final long index;
        final StackTree tree;
        long samples;

        Bucket(long index, StackTree tree) {
            this.index = index;
            this.tree = tree;
        }
    }

    /**
     * For the sessions these options describe: it reaches {@code lookback} back, at {@code lookback-sampling-period};
     * its trees merge into the sessions' path by path (same depth and thread level), each sample weighing
     * {@code lookback-sampling-period / stack-sampling-period} of theirs, so shares stay comparable across both parts;
     * the whole ring holds at most {@link #MAX_TREE_NODES} nodes (or the sessions' fewer), split evenly over its
     * buckets, what does not fit counted under {@code [truncated]}.
     */
    LookbackRing(CpuProfilerOptions options) {
        this.window = options.getLookback();
        this.samplingPeriod = options.getLookbackSamplingPeriod();
        this.weightUnit = options.getStackSamplingPeriod();
        this.maxStackDepth = options.getMaxStackDepth();
        this.maxTreeNodes = Math.min(options.getMaxTreeNodes(), MAX_TREE_NODES);
        this.groupByThread = options.isGroupByThread();
        this.windowMillis = window.toMillis();
        this.widthMillis = Math.max(1, windowMillis / BUCKETS);
        this.slots = new Bucket[(int) (windowMillis / widthMillis) + 1];
        this.nodesPerBucket = Math.max(64, maxTreeNodes / slots.length);
        this.weigher = new SampleWeigher(samplingPeriod, weightUnit);
    }

    /** How far back it reaches. */
    Duration window() {
        return window;
    }

    /** The period its samples are asked for at (JFR may impose a finer one: {@link #samplePeriod()}). */
    Duration samplingPeriod() {
        return samplingPeriod;
    }

    /** The sessions' sampling period, the unit its weights are in. */
    Duration weightUnit() {
        return weightUnit;
    }

    int maxStackDepth() {
        return maxStackDepth;
    }

    int maxTreeNodes() {
        return maxTreeNodes;
    }

    /** Adds one sample taken at {@code sampledAt}; samples older than every retained bucket are dropped. */
    void add(Instant sampledAt, List<Frame> framesRootFirst, String threadName) {
        add(sampledAt, framesRootFirst, threadName, null);
    }

    /**
     * As {@link #add(Instant, List, String)}, for a sample that stands for {@code period} (null: the current
     * {@link #samplePeriod()}); this is the {@link LookbackSource.Sink} a recording fills.
     */
    synchronized void add(Instant sampledAt, List<Frame> framesRootFirst, String threadName, Duration period) {
        long index = Math.floorDiv(sampledAt.toEpochMilli(), widthMillis);
        if (newestIndex != Long.MIN_VALUE && index <= newestIndex - slots.length) {
            dropped++;  // its slot belongs to a newer bucket now: it is outside the window anyway
            return;
        }
        newestIndex = Math.max(newestIndex, index);
        int slot = (int) Math.floorMod(index, (long) slots.length);
        Bucket bucket = slots[slot];
        if (bucket == null || bucket.index < index) {
            bucket = new Bucket(index, new StackTree(maxStackDepth, nodesPerBucket, groupByThread));
            slots[slot] = bucket;
        }
        bucket.samples++;
        bucket.tree.accept(framesRootFirst, threadName, period == null ? weigher.next() : weigher.next(period));
    }

    /** Samples from now on come every {@code period} (JFR may impose a finer one than asked for). */
    synchronized void samplePeriod(Duration period) {
        weigher.period(period);
    }

    synchronized Duration samplePeriod() {
        return weigher.period();
    }

    /** Drops the buckets that start before {@code now - window}, freeing their memory. */
    synchronized void evict(Instant now) {
        long first = firstIndex(now);
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null && slots[i].index < first) {
                slots[i] = null;
            }
        }
    }

    /** The samples of the window ending at {@code now}, merged into one tree. */
    synchronized Contents contents(Instant now) {
        long first = firstIndex(now);
        StackTree merged = new StackTree(maxStackDepth, Math.max(maxTreeNodes, 100), groupByThread);
        long samples = 0;
        for (Bucket bucket : slots) {
            // Order does not matter: merging adds weights, and the snapshot sorts children canonically.
            if (bucket != null && bucket.index >= first) {
                merged.merge(bucket.tree);
                samples += bucket.samples;
            }
        }
        return new Contents(Instant.ofEpochMilli(first * widthMillis), samples, dropped, merged.snapshot());
    }

    /** {@link #contents} and then {@link #clear}: each sample goes into one profile at most. */
    synchronized Contents drain(Instant now) {
        Contents contents = contents(now);
        clear();
        return contents;
    }

    /** Forgets every sample. */
    synchronized void clear() {
        Arrays.fill(slots, null);
        newestIndex = Long.MIN_VALUE;
        dropped = 0;
        weigher.reset();
    }

    /** Samples held now (raw look-back samples, not weights). */
    synchronized long samples() {
        long n = 0;
        for (Bucket b : slots) {
            n += b == null ? 0 : b.samples;
        }
        return n;
    }

    /** Nodes of all bucket trees, roots and markers included. */
    synchronized int nodeCount() {
        int n = 0;
        for (Bucket b : slots) {
            n += b == null ? 0 : b.tree.nodeCount();
        }
        return n;
    }

    /** Approximate heap of the bucket trees (node arrays, index and frame tables, not the name Strings). */
    synchronized long footprintBytes() {
        long bytes = 0;
        for (Bucket b : slots) {
            bytes += b == null ? 0 : b.tree.nodeFootprintBytes() + b.tree.frameTableFootprintBytes();
        }
        return bytes;
    }

    /** The earliest time a retained sample can have: the start of the oldest bucket the window still holds. */
    Instant coveredFrom(Instant now) {
        return Instant.ofEpochMilli(firstIndex(now) * widthMillis);
    }

    Duration bucketWidth() {
        return Duration.ofMillis(widthMillis);
    }

    int bucketSlots() {
        return slots.length;
    }

    /** The first bucket that starts inside the window ending at {@code now}. */
    private long firstIndex(Instant now) {
        long from = now.toEpochMilli() - windowMillis;
        return -Math.floorDiv(-from, widthMillis);  // ceiling division
    }
}
