package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.StackTreeSnapshot;

import static dev.cpuprofiler.internal.stack.Stacks.of;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HotMethodsTest {

    @Test
    void sumsSelfTimeOverEveryPlaceAMethodAppears() {
        StackTree tree = new StackTree(64, 1000, false);
        // Kernel.spin is called from two towers; on its own in each it is smaller than Json.write, together larger.
        tree.accept(of("Thread.run;Handler.a;Kernel.spin"), "t", 30);
        tree.accept(of("Thread.run;Handler.b;Kernel.spin"), "t", 30);
        tree.accept(of("Thread.run;Handler.c;Json.write"), "t", 40);

        List<HotMethods.Method> hot = HotMethods.of(tree.snapshot(), 20);

        assertThat(hot).extracting(HotMethods.Method::method).containsExactly("Kernel.spin", "Json.write");
        assertThat(hot.get(0).samples()).isEqualTo(60);
        assertThat(hot.get(0).selfPercent()).isEqualTo(60.0);
        assertThat(hot.get(0).totalPercent()).isEqualTo(60.0);
        assertThat(hot.get(1).selfPercent()).isEqualTo(40.0);
    }

    @Test
    void totalCountsARecursiveSampleOnce() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(of("main;Parser.parse;Parser.parse;Parser.parse;Lexer.next"), "t", 50);
        tree.accept(of("main;Parser.parse;Parser.parse"), "t", 25);
        tree.accept(of("main;Other.idle"), "t", 25);

        List<HotMethods.Method> hot = HotMethods.of(tree.snapshot(), 20);

        HotMethods.Method parse = hot.stream().filter(h -> h.method().equals("Parser.parse")).findFirst().orElseThrow();
        assertThat(parse.selfPercent()).isEqualTo(25.0);
        assertThat(parse.totalPercent()).isEqualTo(75.0);
        assertThat(hot.get(0).method()).isEqualTo("Lexer.next");
        assertThat(hot.get(0).totalPercent()).isEqualTo(50.0);
    }

    @Test
    void leavesOutThreadGroupsAndCutMarkersAndHonoursTheLimit() {
        StackTree tree = new StackTree(64, 1000, true);
        tree.accept(of("[truncated];Deep.leaf"), "worker-1", 10);
        for (int i = 0; i < 30; i++) {
            tree.accept(of("main;M" + i + ".run"), "main", 1 + i);
        }

        List<HotMethods.Method> hot = HotMethods.of(tree.snapshot(), 20);

        assertThat(hot).hasSize(20);
        assertThat(hot).extracting(HotMethods.Method::method).doesNotContain("[truncated]", "[main]", "[worker-1]");
        assertThat(hot.get(0).method()).isEqualTo("M29.run");
        assertThat(hot).extracting(HotMethods.Method::samples).isSortedAccordingTo((a, b) -> Long.compare(b, a));
    }

    @Test
    void anEmptyTreeHasNoHotMethods() {
        assertThat(HotMethods.of(StackTreeSnapshot.empty(), 20)).isEmpty();
    }

    @Test
    void rootCutCountsSamplesThatStartAtTheMarker() {
        StackTree flat = new StackTree(64, 1000, false);
        flat.accept(of("[truncated];Filter.doFilter;Controller.get"), "t", 30);
        flat.accept(of("Thread.run;Controller.get"), "t", 70);
        assertThat(StackTree.RootCut.of(flat.snapshot())).isEqualTo(new StackTree.RootCut(30, 30.0));

        StackTree byThread = new StackTree(64, 1000, true);
        byThread.accept(of("[truncated];Filter.doFilter"), "exec-1", 5);
        byThread.accept(of("Thread.run;Filter.doFilter"), "exec-2", 15);
        assertThat(StackTree.RootCut.of(byThread.snapshot()).samples()).isEqualTo(5);

        // The tree's own depth limit keeps the root side and cuts in the middle: not a root cut.
        StackTree shallow = new StackTree(4, 1000, false);
        shallow.accept(of("Thread.run;a;b;c;d;e;leaf"), "t", 10);
        assertThat(shallow.snapshot().truncatedSamples()).isEqualTo(10);
        assertThat(StackTree.RootCut.of(shallow.snapshot()).samples()).isZero();
    }
}
