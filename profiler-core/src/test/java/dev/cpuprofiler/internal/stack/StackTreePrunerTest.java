package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.format.Rendered;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StackTreePrunerTest {

    private static void assertInvariant(StackNode node) {
        long children = node.children().stream().mapToLong(StackNode::total).sum();
        assertThat(node.total()).isEqualTo(node.self() + children);
        node.children().forEach(StackTreePrunerTest::assertInvariant);
    }

    @Test
    void foldsSmallChildrenIntoOneCountedNodeAndKeepsTotalsExact() {
        StackTree tree = new StackTree(64, 10_000, false);
        tree.accept(List.of(Frame.java("a.Main.run"), Frame.java("a.Hot.big")), "t", 900);
        for (int i = 0; i < 50; i++) {
            tree.accept(List.of(Frame.java("a.Main.run"), Frame.java("a.Cold.tiny" + i)), "t", 2);
        }
        tree.accept(List.of(Frame.java("a.Main.run")), "t", 0);

        StackNode pruned = StackNode.of(StackTreePruner.prune(tree.snapshot(), 1.0));

        assertThat(pruned.total()).isEqualTo(1000);
        assertInvariant(pruned);
        StackNode run = pruned.child("a.Main.run");
        assertThat(run.children()).extracting(StackNode::frame)
                .containsExactly("a.Hot.big", "[50 more below 1.0%]");
        assertThat(run.child("[50 more below 1.0%]").total()).isEqualTo(100);
    }

    @Test
    void zeroPercentKeepsEverything() {
        StackTree tree = new StackTree(64, 10_000, false);
        tree.accept(List.of(Frame.java("a.A.x"), Frame.java("a.B.y")), "t", 3);
        tree.accept(List.of(Frame.java("a.A.x")), "t", 1);
        StackTreeSnapshot original = tree.snapshot();
        assertThat(StackNode.of(StackTreePruner.prune(original, 0))).isEqualTo(StackNode.of(original));
    }

    @Test
    void foldsRandomTreesAsTheStraightforwardRecursiveFoldDoes() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            StackTree tree = new StackTree(64, 8 + random.nextInt(300), random.nextBoolean());
            for (int i = 0, n = random.nextInt(300); i < n; i++) {
                List<Frame> stack = new ArrayList<>();
                for (int d = 0, depth = random.nextInt(10); d < depth; d++) {
                    stack.add(new Frame("app.F.f" + random.nextInt(6),
                            random.nextInt(4) == 0 ? FrameKind.NATIVE : FrameKind.JAVA));
                }
                tree.accept(stack, "t-" + random.nextInt(3), 1 + random.nextInt(random.nextBoolean() ? 3 : 300));
            }
            StackTreeSnapshot snapshot = tree.snapshot();
            double minPercent = random.nextInt(4) == 0 ? 0 : random.nextDouble() * 20;

            StackTreeSnapshot pruned = StackTreePruner.prune(snapshot, minPercent);

            assertThat(Rendered.collapsed(pruned)).as("round %d, %s%%", round, minPercent)
                    .isEqualTo(Rendered.collapsed(recursiveFold(snapshot, minPercent)));
            assertThat(StackNode.of(pruned)).as("round %d, %s%%", round, minPercent)
                    .isEqualTo(StackNode.of(recursiveFold(snapshot, minPercent)));
            assertThat(pruned.truncatedSamples()).isEqualTo(snapshot.truncatedSamples());
            assertInvariant(StackNode.of(pruned));
        }
    }

    /** The fold written the obvious way (recursive, a path per node with self): fine for small trees. */
    private static StackTreeSnapshot recursiveFold(StackTreeSnapshot tree, double minPercent) {
        long minTotal = (long) Math.ceil(tree.total(0) * minPercent / 100.0);
        StackTree out = new StackTree(Math.max(3, tree.maxDepth() + 2), Math.max(100, tree.size() * 2 + 2), false);
        fold(tree, 0, minTotal, minPercent, new ArrayList<>(), out);
        return out.snapshot();
    }

    private static void fold(StackTreeSnapshot tree, int node, long minTotal, double minPercent, List<Frame> path,
            StackTree out) {
        if (node != 0) {
            path.add(new Frame(tree.frame(node), tree.kind(node)));
        }
        if (tree.self(node) > 0) {
            out.accept(List.copyOf(path), null, tree.self(node));
        }
        long hiddenTotal = 0;
        int hiddenCount = 0;
        for (int child = tree.firstChild(node); child >= 0; child = tree.nextSibling(child)) {
            if (tree.total(child) >= minTotal && tree.total(child) > 0) {
                fold(tree, child, minTotal, minPercent, path, out);
            } else {
                hiddenTotal += tree.total(child);
                hiddenCount++;
            }
        }
        if (hiddenTotal > 0) {
            List<Frame> hidden = new ArrayList<>(path);
            hidden.add(new Frame("[" + hiddenCount + " more below " + minPercent + "%]", FrameKind.UNKNOWN));
            out.accept(hidden, null, hiddenTotal);
        }
        if (node != 0) {
            path.remove(path.size() - 1);
        }
    }

    @Test
    void anEmptyTreePrunesToAnEmptyTree() {
        StackTreeSnapshot pruned = StackTreePruner.prune(StackTreeSnapshot.empty(), 0.5);

        assertThat(pruned.size()).isEqualTo(1);
        assertThat(pruned.totalSamples()).isZero();
    }
}
