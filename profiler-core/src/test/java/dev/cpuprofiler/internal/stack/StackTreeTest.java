package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.format.Rendered;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static dev.cpuprofiler.internal.stack.Stacks.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StackTreeTest {

    @Test
    void mergesStacksIntoTotalsAndSelf() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(of("main;work;hot"), "main", 3);
        tree.accept(of("main;work;hot"), "main", 2);
        tree.accept(of("main;work"), "main", 1);
        tree.accept(of("main;idle"), "main", 4);

        StackNode root = StackNode.of(tree.snapshot());

        assertThat(root.frame()).isEqualTo("all");
        assertThat(root.total()).isEqualTo(10);
        assertThat(root.self()).isZero();
        StackNode main = root.child("main");
        assertThat(main.total()).isEqualTo(10);
        assertThat(main.children()).extracting(StackNode::frame).containsExactly("work", "idle");
        StackNode work = main.child("work");
        assertThat(work.total()).isEqualTo(6);
        assertThat(work.self()).isEqualTo(1);
        assertThat(work.child("hot").self()).isEqualTo(5);
        assertThat(work.child("hot").kind()).isEqualTo(FrameKind.JAVA);
        assertThat(tree.truncatedSamples()).isZero();
    }

    @Test
    void randomTreesKeepEveryInvariant() {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            int maxDepth = 3 + random.nextInt(12);
            int maxNodes = 8 + random.nextInt(round % 3 == 0 ? 40 : 2000);
            boolean byThread = random.nextBoolean();
            StackTree tree = new StackTree(maxDepth, maxNodes, byThread);
            long weights = 0;
            long cutByDepth = 0;
            int alphabet = 2 + random.nextInt(8);
            for (int sample = 0, samples = 1 + random.nextInt(400); sample < samples; sample++) {
                List<Frame> stack = new ArrayList<>();
                for (int d = 0, depth = random.nextInt(20); d < depth; d++) {
                    FrameKind kind = random.nextInt(10) == 0 ? FrameKind.INLINED : FrameKind.JAVA;
                    stack.add(new Frame("p.C" + random.nextInt(alphabet) + ".m", kind));
                }
                long weight = 1 + random.nextInt(5);
                tree.accept(stack, "worker-" + random.nextInt(4), weight);
                weights += weight;
                cutByDepth += stack.size() > maxDepth ? weight : 0;
            }
            StackTreeSnapshot snapshot = tree.snapshot();

            Stacks.assertInvariants(snapshot);
            assertThat(snapshot.totalSamples()).as("round %d", round).isEqualTo(weights);
            assertThat(snapshot.size()).isLessThanOrEqualTo(maxNodes);
            assertThat(snapshot.maxDepth()).isLessThanOrEqualTo(maxDepth + (byThread ? 2 : 1));
            assertThat(snapshot.truncatedSamples()).isEqualTo(Stacks.weightThroughMarkers(snapshot))
                    .isGreaterThanOrEqualTo(cutByDepth);
            assertThat(snapshot.self(0)).isZero();
        }
    }

    @Test
    void randomTreesWithinLimitsMatchAPlainCountOfEachStack() {
        Random random = new Random(7);
        for (int round = 0; round < 100; round++) {
            StackTree tree = new StackTree(100, 1_000_000, false);
            Map<String, Long> expected = new TreeMap<>();
            for (int sample = 0; sample < 300; sample++) {
                List<String> names = new ArrayList<>();
                for (int d = 0, depth = 1 + random.nextInt(10); d < depth; d++) {
                    names.add("a.B" + random.nextInt(3) + ".m" + random.nextInt(2));
                }
                long weight = 1 + random.nextInt(3);
                tree.accept(of(String.join(";", names)), null, weight);
                expected.merge(String.join(";", names), weight, Long::sum);
            }
            Map<String, Long> actual = new TreeMap<>();
            for (String line : Rendered.collapsed(tree.snapshot()).split("\n")) {
                int space = line.lastIndexOf(' ');
                actual.put(line.substring(0, space), Long.parseLong(line.substring(space + 1)));
            }
            assertThat(actual).isEqualTo(expected);
            assertThat(tree.truncatedSamples()).isZero();
        }
    }

    @Test
    void deepStackKeepsRootSideAndLeafAroundACountedMarker() {
        StackTree tree = new StackTree(5, 1000, false);
        List<Frame> deep = of("f0;f1;f2;f3;f4;f5;f6;f7;f8;hot");

        tree.accept(deep, "main", 3);
        tree.accept(of("f0;f1;other"), "main", 1);

        StackNode f2 = StackNode.of(tree.snapshot()).child("f0").child("f1").child("f2");
        StackNode marker = f2.child(StackTree.TRUNCATED);
        assertThat(marker.total()).isEqualTo(3);
        assertThat(marker.self()).isZero();
        assertThat(marker.child("hot").self()).isEqualTo(3);
        assertThat(tree.totalSamples()).isEqualTo(4);
        assertThat(tree.truncatedSamples()).isEqualTo(3);
        assertThat(tree.truncatedFrames()).isEqualTo(10 - 4);  // f3..f8 dropped: 6 frames
    }

    @Test
    void samplesCutByTheTreeAreToldApartFromSamplesThatArrivedCut() {
        StackTree tree = new StackTree(5, 1000, false);

        List<Frame> cutByEngine = new ArrayList<>(of("f5;f6;hot"));
        cutByEngine.add(0, new Frame(StackTree.TRUNCATED, FrameKind.UNKNOWN));
        tree.accept(cutByEngine, null, 2);  // an engine cut these at the root: whole for the tree
        tree.accept(of("f0;f1;f2;f3;f4;f5;hot"), null, 3);  // the tree cuts these

        assertThat(tree.truncatedSamples()).isEqualTo(5);
        assertThat(tree.samplesCutByLimits()).isEqualTo(3);
        StackTree merged = new StackTree(5, 1000, false);
        merged.merge(tree);
        assertThat(merged.truncatedSamples()).isEqualTo(5);
        assertThat(merged.samplesCutByLimits()).isZero();
    }

    @Test
    void fullTreePutsNewBranchesIntoMarkersWithExactTotals() {
        // 8 nodes: 6 for frames (root included), 2 kept for markers.
        StackTree tree = new StackTree(64, 8, false);
        tree.accept(of("a;b;c;d;e"), null, 1);     // root + 5 nodes = 6: full for frames
        tree.accept(of("a;b;x;y"), null, 2);       // x is new: its weight goes to [truncated] under b
        tree.accept(of("a;z"), null, 4);           // no slot under a: the root's reserved marker takes it
        tree.accept(of("a;b;w"), null, 8);         // b's marker exists: it takes this one too
        tree.accept(of("a;b;c;d;e"), null, 16);    // known stacks still merge normally

        StackTreeSnapshot snapshot = tree.snapshot();
        Stacks.assertInvariants(snapshot);
        StackNode root = StackNode.of(snapshot);
        assertThat(snapshot.size()).isEqualTo(8);
        assertThat(root.total()).isEqualTo(31);
        assertThat(root.child(StackTree.TRUNCATED).total()).isEqualTo(4);
        assertThat(root.child("a").child("b").child(StackTree.TRUNCATED).total()).isEqualTo(10);
        assertThat(root.child("a").child("b").child("c").total()).isEqualTo(17);
        assertThat(tree.truncatedSamples()).isEqualTo(14);
        assertThat(tree.truncatedFrames()).isEqualTo(2 + 1 + 1);  // x and y; z; w
    }

    @Test
    void javaAndInlinedFramesOfOneMethodShareANode() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(List.of(Frame.java("app.Main.run"), new Frame("app.Util.sum", FrameKind.INLINED)), null, 1);
        tree.accept(List.of(Frame.java("app.Main.run"), new Frame("app.Util.sum", FrameKind.INLINED)), null, 1);
        StackNode sum = StackNode.of(tree.snapshot()).child("app.Main.run").child("app.Util.sum");
        assertThat(sum.kind()).isEqualTo(FrameKind.INLINED);

        tree.accept(List.of(Frame.java("app.Main.run"), Frame.java("app.Util.sum")), null, 1);

        StackNode run = StackNode.of(tree.snapshot()).child("app.Main.run");
        assertThat(run.children()).hasSize(1);
        assertThat(run.child("app.Util.sum").total()).isEqualTo(3);
        assertThat(run.child("app.Util.sum").kind()).isEqualTo(FrameKind.JAVA);
    }

    @Test
    void emptyStacksAreCountedUnderNoStackSoTheRootSelfStaysZero() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(List.of(), "main", 2);
        StackNode root = StackNode.of(tree.snapshot());
        assertThat(root.self()).isZero();
        assertThat(root.child(StackTree.NO_STACK).self()).isEqualTo(2);
    }

    @Test
    void groupsByFoldedThreadName() {
        StackTree tree = new StackTree(64, 1000, true);
        tree.accept(of("Thread.run;Handler.handle"), "http-nio-8080-exec-1", 1);
        tree.accept(of("Thread.run;Handler.handle"), "http-nio-8080-exec-12", 1);
        tree.accept(of("Thread.run;Worker.work"), "pool-3-thread-7", 1);
        tree.accept(of("Thread.run;Worker.work"), "pool-1-thread-2", 1);
        tree.accept(of("Main.main"), null, 1);

        StackNode root = StackNode.of(tree.snapshot());

        assertThat(root.children()).extracting(StackNode::frame)
                .containsExactly("[http-nio-8080-exec-*]", "[pool-*-thread-*]", "[" + ThreadNames.UNKNOWN_THREAD + "]");
        assertThat(root.child("[http-nio-8080-exec-*]").child("Thread.run").child("Handler.handle").total())
                .isEqualTo(2);
    }

    @Test
    void mergingTreesAddsTheirSamples() {
        StackTree first = new StackTree(64, 1000, false);
        StackTree second = new StackTree(64, 1000, false);
        StackTree both = new StackTree(64, 1000, false);
        Random random = new Random(3);
        for (int i = 0; i < 500; i++) {
            List<Frame> stack = of("a;b" + random.nextInt(3) + ";c" + random.nextInt(5));
            (i % 2 == 0 ? first : second).accept(stack, null, 1 + i % 3);
            both.accept(stack, null, 1 + i % 3);
        }

        first.merge(second);

        assertThat(Rendered.collapsed(first.snapshot())).isEqualTo(Rendered.collapsed(both.snapshot()));
    }

    @Test
    void mergingIntoASmallerTreeAppliesItsLimits() {
        StackTree big = new StackTree(64, 100_000, false);
        for (int i = 0; i < 200; i++) {
            big.accept(of("root;mid" + i % 20 + ";leaf" + i), null, 1);
        }
        StackTree small = new StackTree(64, 50, false);

        small.merge(big);

        StackTreeSnapshot snapshot = small.snapshot();
        Stacks.assertInvariants(snapshot);
        assertThat(snapshot.size()).isLessThanOrEqualTo(50);
        assertThat(snapshot.totalSamples()).isEqualTo(200);
        assertThat(snapshot.truncatedSamples()).isEqualTo(Stacks.weightThroughMarkers(snapshot)).isPositive();
    }

    @Test
    void snapshotsTakenWhileMergingAreConsistent() throws Exception {
        StackTree tree = new StackTree(32, 5000, true);
        Thread writer = new Thread(() -> {
            Random random = new Random(1);
            for (int i = 0; i < 200_000; i++) {
                tree.accept(of("a;b" + random.nextInt(50) + ";c" + random.nextInt(50)), "t-" + i % 3, 1);
            }
        });
        writer.start();
        long last = 0;
        while (writer.isAlive()) {
            StackTreeSnapshot snapshot = tree.snapshot();
            Stacks.assertInvariants(snapshot);
            assertThat(snapshot.totalSamples()).isGreaterThanOrEqualTo(last);
            last = snapshot.totalSamples();
        }
        writer.join();
        assertThat(tree.snapshot().totalSamples()).isEqualTo(200_000);
    }

    @Test
    void rejectsNegativeWeightsAndIgnoresZero() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(of("a"), null, 0);
        assertThat(tree.totalSamples()).isZero();
        assertThatThrownBy(() -> tree.accept(of("a"), null, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StackTree(2, 1000, false)).hasMessageContaining("maxStackDepth");
    }

    @Test
    void frameNamesFromDifferentRunsMergeIntoOneNode() {
        StackTree tree = new StackTree(64, 1000, false);
        Map<String, String> variants = new HashMap<>();
        variants.put("app.Service$$Lambda$123/0x0000000801234abc.apply", "jdk17");
        variants.put("app.Service$$Lambda/0x00007f0001234000.apply", "jdk21");
        variants.put("app.Service$$Lambda.0x00007f0001234000.apply", "jfr");
        variants.put("app/Service$$Lambda$77/0x0000000800099.apply_[j]", "async-profiler");
        for (String name : variants.keySet()) {
            tree.accept(List.of(Frame.java("app.Main.main"), new Frame(name, FrameKind.JAVA)), null, 1);
        }
        StackNode main = StackNode.of(tree.snapshot()).child("app.Main.main");
        assertThat(main.children()).singleElement().satisfies(node -> {
            assertThat(node.frame()).isEqualTo("app.Service$$Lambda.apply");
            assertThat(node.total()).isEqualTo(4);
        });
    }
}
