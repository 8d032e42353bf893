package dev.cpuprofiler.format;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.stack.Stacks;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TextTreeRendererTest {

    private static StackTreeSnapshot sample() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Worker.loop;app.Hot.compute;app.Hot.inner"), null, 1480);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Worker.loop;app.Hot.compute"), null, 20);
        tree.accept(List.of(Frame.java("java.lang.Thread.run"), Frame.java("app.Worker.loop"),
                new Frame("app.Cold.read", FrameKind.NATIVE)), null, 1390);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Worker.loop;app.Tiny.a"), null, 3);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Worker.loop;app.Tiny.b"), null, 2);
        return tree.snapshot();
    }

    @Test
    void indentsAtBranchesAndClosesEachBranch() {
        assertThat(Rendered.text(sample())).isEqualTo("""
                Tree weight: 2895 (truncated: 0 samples, 0 frames)
                 2895 100.00%  all
                 2895 100.00%  java.lang.Thread.run
                 2895 100.00%  app.Worker.loop
                   1500  51.81%  app.Hot.compute  [self 20]
                   1480  51.12%  app.Hot.inner
                   1500 ~~~~
                   1390  48.01%  app.Cold.read (native)
                   1390 ~~~~
                      3   0.10%  app.Tiny.a
                      3 ~~~~
                      2   0.07%  app.Tiny.b
                      2 ~~~~
                """);
    }

    @Test
    void hidesSmallBranchesAndSaysWhatIsHidden() {
        String text = Rendered.text(new TextTreeRenderer(1.0, false), sample());

        assertThat(text).doesNotContain("app.Tiny")
                .contains("frames below 1.0% hidden")
                .contains("      5   0.17%  [2 more below 1.0%]\n");
    }

    @Test
    void canIndentEveryFrame() {
        String text = Rendered.text(new TextTreeRenderer(0, true), sample());

        assertThat(text).contains("\n   2895 100.00%  java.lang.Thread.run\n     2895 100.00%  app.Worker.loop\n");
    }

    @Test
    void deepChainsStayAtOneIndentation() {
        List<Frame> deep = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            deep.add(Frame.java("app.Recursive.step"));
        }
        StackTree tree = new StackTree(8192, 100_000, false);
        tree.accept(deep, null, 4);

        String[] lines = Rendered.text(tree.snapshot()).split("\n");

        assertThat(lines).hasSize(1 + 1 + 5000);
        assertThat(lines[5001]).isEqualTo("    4 100.00%  app.Recursive.step");
    }

    @Test
    void showsTruncationInTheHeader() {
        StackTree tree = new StackTree(4, 1000, false);
        tree.accept(Stacks.of("a.A.a;a.B.b;a.C.c;a.D.d;a.E.e"), null, 2);

        assertThat(Rendered.text(tree.snapshot()))
                .startsWith("Tree weight: 2 (truncated: 2 samples, 2 frames)\n")
                .contains("[truncated]");
    }
}
