package dev.cpuprofiler.internal.stack;

import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.Frame;
import dev.cpuprofiler.StackTreeSnapshot;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class FlameGraphRendererTest {

    private static StackTreeSnapshot sample() {
        StackTree tree = new StackTree(64, 1000, true);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Worker.loop;app.HotSpotCalculator.compute"), "exec-1", 900);
        tree.accept(List.of(Frame.java("java.lang.Thread.run"), new Frame("app.Util.sum", FrameKind.INLINED),
                new Frame("write", FrameKind.NATIVE), new Frame("do_syscall_64", FrameKind.KERNEL)), "exec-2", 100);
        return tree.snapshot();
    }

    @Test
    void drawsTheHotFrameInAPageThatLoadsNothing() {
        String html = new FlameGraphRenderer().renderToString(sample());

        assertThat(html).startsWith("<!DOCTYPE html>")
                .contains("HotSpotCalculator.compute")
                .contains("Content-Security-Policy")
                .contains("<canvas");
        assertThat(Pattern.compile("(?i)https?://").matcher(html).find()).as("no http(s) URL").isFalse();
        assertThat(html).doesNotContainIgnoringCase("<script src").doesNotContainIgnoringCase("<link")
                .doesNotContainIgnoringCase("@import").doesNotContain("url(");
    }

    @Test
    void escapesTheTitle() {
        String html = new FlameGraphRenderer("CPU <b>profile</b> & more", 0).renderToString(sample());

        assertThat(html).contains("<h1>CPU &lt;b&gt;profile&lt;/b&gt; &amp; more</h1>");
    }

    @Test
    void aThreadNameCannotEndTheScript() {
        StackTree tree = new StackTree(64, 1000, true);
        tree.accept(Stacks.of("app.Main.main"), "evil</script><script>alert(1)</script>", 1);

        String html = new FlameGraphRenderer().renderToString(tree.snapshot());

        assertThat(html).doesNotContain("alert(1)</script>").doesNotContain("</script><script>");
        assertThat(html.split("(?i)</script>", -1)).hasSize(3);  // the template's two script elements only
    }

    @Test
    void smallFramesCanBeLeftOut() {
        String all = new FlameGraphRenderer("p", 0).renderToString(sample());
        String big = new FlameGraphRenderer("p", 20).renderToString(sample());

        // Every frame drawn is one f(..)/n(..)/u(..) call in the page's data.
        assertThat(drawnFrames(all)).isEqualTo(sample().size());
        assertThat(drawnFrames(big)).isEqualTo(5);  // all, thread, run, loop, compute: the 10% branch is gone
    }

    private static long drawnFrames(String html) {
        return html.lines().filter(line -> line.matches("[fnu]\\(.*\\)")).count();
    }
}
