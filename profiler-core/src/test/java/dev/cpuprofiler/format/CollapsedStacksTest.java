package dev.cpuprofiler.format;

import dev.cpuprofiler.internal.stack.CollapsedStacks;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackNode;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.stack.Stacks;
import dev.cpuprofiler.FrameKind;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CollapsedStacksTest {


    @Test
    void writesOneLinePerDistinctPathHottestFirst() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Worker.loop;app.Hot.compute"), null, 5);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Worker.loop"), null, 1);
        tree.accept(List.of(Frame.java("java.lang.Thread.run"), new Frame("app.Cold.read", FrameKind.INLINED),
                new Frame("read", FrameKind.NATIVE), new Frame("do_syscall_64", FrameKind.KERNEL)), null, 2);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Worker.loop;app.Hot.compute"), null, 1);

        assertThat(Rendered.collapsed(tree.snapshot())).isEqualTo("""
                java.lang.Thread.run;app.Worker.loop 1
                java.lang.Thread.run;app.Worker.loop;app.Hot.compute 6
                java.lang.Thread.run;app.Cold.read_[i];read;do_syscall_64_[k] 2
                """);
    }

    @Test
    void collapsedToTreeToCollapsedGivesTheSameText() {
        String canonical = """
                java.lang.Thread.run;app.Worker.loop;app.Hot.compute 40
                java.lang.Thread.run;app.Worker.loop;app.Hot.compute;java.util.HashMap.get_[i] 7
                java.lang.Thread.run;app.Worker.loop 3
                java.lang.Thread.run;app.Worker.loop;app.Cold.read;read;do_syscall_64_[k] 20
                java.lang.Thread.run;app.Other.job 9
                [no stack] 1
                """;
        String once = Rendered.collapsed(CollapsedStacks.parse(canonical).snapshot());
        String twice = Rendered.collapsed(CollapsedStacks.parse(once).snapshot());

        assertThat(twice).isEqualTo(once);
        assertThat(sortedLines(once)).isEqualTo(sortedLines(canonical));
    }

    @Test
    void lineOrderAndRepeatedStacksDoNotChangeTheCanonicalText() {
        Random random = new Random(11);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            lines.add("a.A.main;b.B.m" + random.nextInt(4) + ";c.C.m" + random.nextInt(6) + " " + (1 + random.nextInt(9)));
        }
        String canonical = Rendered.collapsed(CollapsedStacks.parse(String.join("\n", lines)).snapshot());
        Collections.shuffle(lines, random);
        String shuffled = Rendered.collapsed(CollapsedStacks.parse(String.join("\n", lines)).snapshot());

        assertThat(shuffled).isEqualTo(canonical);
        long sum = Arrays.stream(canonical.split("\n")).mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
        long expected = lines.stream().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
        assertThat(sum).isEqualTo(expected);
    }

    @Test
    void readsAsyncProfilerOutput() {
        StackTree tree = CollapsedStacks.parse("""
                [main tid=1];java/lang/Thread.run_[j];app/Foo$$Lambda$12/0x0000000800c01234.run_[j];app/Util.sum_[i] 3
                [main tid=1];java/lang/Thread.run_[j];app/Foo$$Lambda$12/0x0000000800c01234.run_[j];app/Util.sum_[j] 2
                """);

        StackNode lambda = StackNode.of(tree.snapshot()).child("[main tid=1]").child("java.lang.Thread.run")
                .child("app.Foo$$Lambda.run");
        assertThat(lambda.kind()).isEqualTo(FrameKind.JAVA);
        assertThat(lambda.children()).singleElement().satisfies(sum -> {
            assertThat(sum.frame()).isEqualTo("app.Util.sum");
            assertThat(sum.total()).isEqualTo(5);
        });
    }

    @Test
    void javaFramesWhoseNameDoesNotSayJavaKeepTheirKindThroughASuffix() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(Stacks.of("main;work"), null, 1);
        String text = Rendered.collapsed(tree.snapshot());

        assertThat(text).isEqualTo("main_[j];work_[j] 1\n");
        assertThat(StackNode.of(CollapsedStacks.parse(text).snapshot()).child("main").kind()).isEqualTo(FrameKind.JAVA);
    }

    @Test
    void badLinesAreReportedWithTheirNumber() {
        assertThatThrownBy(() -> CollapsedStacks.parse("a;b 1\na;b many\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("line 2");
    }

    @Test
    void truncatedStacksStayCountedAfterARoundTrip() {
        StackTree tree = new StackTree(4, 1000, false);
        tree.accept(Stacks.of("x.A.a;x.B.b;x.C.c;x.D.d;x.E.e;x.F.f"), null, 3);
        tree.accept(Stacks.of("x.A.a;x.B.b"), null, 1);
        String text = Rendered.collapsed(tree.snapshot());

        assertThat(text).contains("x.A.a;x.B.b;[truncated];x.F.f 3");
        assertThat(CollapsedStacks.parse(text).truncatedSamples()).isEqualTo(3);
    }

    private static List<String> sortedLines(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n")));
        Collections.sort(lines);
        return lines;
    }
}
