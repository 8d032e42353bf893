package dev.cpuprofiler.stack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
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

        StackNode pruned = StackTreePruner.prune(tree.snapshot(), 1.0).toNode();

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
        assertThat(StackTreePruner.prune(original, 0).toNode()).isEqualTo(original.toNode());
    }
}
