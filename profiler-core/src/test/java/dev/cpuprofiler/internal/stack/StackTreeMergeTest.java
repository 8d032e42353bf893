package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.format.Rendered;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Merging a snapshot node by node (linear, whatever the depth) gives exactly what merging it path by path gives: the
 * same nodes, totals, markers where the node limit bites, and the same counts of truncated samples and frames.
 */
class StackTreeMergeTest {

    private static final String[] NAMES = {"app.A.a", "app.B.b", "app.C.c", "app.D.d", "write", "app.E.e",
        StackTree.TRUNCATED};
    private static final FrameKind[] KINDS = {FrameKind.JAVA, FrameKind.JAVA, FrameKind.INLINED, FrameKind.NATIVE};

    @Test
    void nodeByNodeEqualsPathByPathOnRandomTreesAndLimits() {
        Random random = new Random(20261123);
        for (int round = 0; round < 400; round++) {
            boolean sourceGrouped = random.nextBoolean();
            boolean targetGrouped = random.nextBoolean();
            int maxTreeNodes = 8 + random.nextInt(random.nextBoolean() ? 40 : 400);
            long seedSource = random.nextLong();
            long seedTarget = random.nextLong();
            int preFill = random.nextInt(30);

            StackTreeSnapshot source = fill(new StackTree(64, 100_000, sourceGrouped), new Random(seedSource),
                    1 + random.nextInt(200)).snapshot();
            StackTree byNode = fill(new StackTree(64, maxTreeNodes, targetGrouped), new Random(seedTarget), preFill);
            StackTree byPath = fill(new StackTree(64, maxTreeNodes, targetGrouped), new Random(seedTarget), preFill);

            byNode.merge(source);
            byPath.mergeByPath(source, targetGrouped ? 1 : 0);

            String what = "round " + round + ", limit " + maxTreeNodes;
            StackTreeSnapshot a = byNode.snapshot();
            StackTreeSnapshot b = byPath.snapshot();
            assertThat(Rendered.collapsed(a)).as(what)
                    .isEqualTo(Rendered.collapsed(b));
            assertThat(StackNode.of(a)).as(what).isEqualTo(StackNode.of(b));
            assertThat(byNode.nodeCount()).as(what).isEqualTo(byPath.nodeCount());
            assertThat(byNode.totalSamples()).as(what).isEqualTo(byPath.totalSamples());
            assertThat(byNode.truncatedSamples()).as(what).isEqualTo(byPath.truncatedSamples());
            assertThat(byNode.truncatedFrames()).as(what).isEqualTo(byPath.truncatedFrames());
            Stacks.assertInvariants(a);
            // And the next sample still merges normally (the writer's path cache stayed valid).
            List<Frame> next = stack(new Random(round));
            byNode.accept(next, "t-1", 3);
            byPath.accept(next, "t-1", 3);
            assertThat(StackNode.of(byNode.snapshot())).as(what).isEqualTo(StackNode.of(byPath.snapshot()));
        }
    }

    @Test
    void aDeepTreeMergesInTimeLinearInItsNodes() {
        // 25 recursions 8000 deep with a sample ending at every level: 200 000 nodes, each with self weight. Path by
        // path that is 25 × 8000² / 2 = 800 million steps; node by node, 200 000.
        // Built straight from node arrays: accepting 200 000 stacks that deep would itself take seconds.
        int chains = 25;
        int length = 8000;
        int n = 1 + chains * length;
        int[] parent = new int[n];
        int[] frame = new int[n];
        byte[] kind = new byte[n];
        long[] total = new long[n];
        String[] names = new String[3 + chains + 5];
        names[0] = "all";
        names[1] = StackTree.TRUNCATED;
        names[2] = StackTree.NO_STACK;
        for (int i = 0; i < 5; i++) {
            names[3 + i] = "app.R.f" + i;
        }
        parent[0] = -1;
        total[0] = (long) chains * length;
        for (int c = 0; c < chains; c++) {
            names[8 + c] = "app.Root.s" + c;
            for (int d = 0; d < length; d++) {
                int node = 1 + c * length + d;
                parent[node] = d == 0 ? 0 : node - 1;
                frame[node] = d == 0 ? 8 + c : 3 + d % 5;
                kind[node] = (byte) FrameKind.JAVA.ordinal();
                total[node] = length - d;
            }
        }
        StackTreeSnapshot deep = StackTreeSnapshot.build(n, parent, frame, kind, total, names, 0, 0);
        assertThat(deep.maxDepth()).isEqualTo(length);
        assertThat(deep.self(deep.size() - 1)).isEqualTo(1);
        assertThat(deep.size()).isEqualTo(200_001);

        long start = System.nanoTime();
        StackTree merged = new StackTree(8192, 250_000, false);
        merged.merge(deep);
        merged.merge(deep);
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(merged.totalSamples()).isEqualTo(2 * deep.totalSamples());
        assertThat(merged.nodeCount()).isEqualTo(deep.size());
        assertThat(millis).as("two merges of 200 000 nodes, 8000 deep").isLessThan(2_000);
    }

    private static StackTree fill(StackTree tree, Random random, int stacks) {
        for (int i = 0; i < stacks; i++) {
            tree.accept(stack(random), random.nextInt(5) == 0 ? null : "t-" + random.nextInt(4),
                    1 + random.nextInt(5));
        }
        return tree;
    }

    private static List<Frame> stack(Random random) {
        int depth = random.nextInt(12);
        List<Frame> frames = new ArrayList<>();
        for (int d = 0; d < depth; d++) {
            String name = NAMES[random.nextInt(d == 0 ? NAMES.length : NAMES.length - 1)];
            frames.add(new Frame(name + (random.nextInt(3) == 0 ? d % 3 : ""), KINDS[random.nextInt(KINDS.length)]));
        }
        return frames;
    }
}
