package dev.cpuprofiler.format;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.internal.stack.Stacks;
import dev.cpuprofiler.internal.stack.TreeGroups;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class FlameGraphRendererTest {

    /**
     * What follows the characters a name shares with its neighbour, each starting with a different character, so that,
     * sorted, every one follows a name sharing exactly those characters (the first, {@code " x"}, sorts before the
     * others). The page codes the shared length as one character just before these: {@code <} for 28.
     */
    private static final List<String> RESTS = List.of(" x", "!--<script>", "'),alert(10)//",
            "/script><svg onload=alert(7)>", "</script><svg onload=alert(9)>", "\\",
            "script><img src=x onerror=alert(8)>", "x<!--<script>");

    private static StackTreeSnapshot sample() {
        StackTree tree = new StackTree(64, 1000, true);
        tree.accept(Stacks.of("java.lang.Thread.run;app.Worker.loop;app.HotSpotCalculator.compute"), "exec-1", 900);
        tree.accept(List.of(Frame.java("java.lang.Thread.run"), new Frame("app.Util.sum", FrameKind.INLINED),
                new Frame("write", FrameKind.NATIVE), new Frame("do_syscall_64", FrameKind.KERNEL)), "exec-2", 100);
        return tree.snapshot();
    }

    @Test
    void drawsTheHotFrameInAPageThatLoadsNothing() {
        String html = Rendered.flameGraph(sample());

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
        String html = Rendered.flameGraph(new FlameGraphRenderer("CPU <b>profile</b> & more", 0), sample());

        assertThat(html).contains("<h1>CPU &lt;b&gt;profile&lt;/b&gt; &amp; more</h1>");
    }

    @Test
    void aThreadNameCannotEndTheScript() {
        StackTree tree = new StackTree(64, 1000, true);
        tree.accept(Stacks.of("app.Main.main"), "evil</script><script>alert(1)</script>", 1);

        String html = Rendered.flameGraph(tree.snapshot());

        assertThat(html).doesNotContain("alert(1)</script>").doesNotContain("</script><script>");
        assertThat(html.split("(?i)</script>", -1)).hasSize(3);  // the template's two script elements only
        assertThat(FlameGraphPage.names(html)).contains("[evil</script><script>alert(1)</script>]");
    }

    @Test
    void noNamesNeighbouringInAnyWayCanAddMarkupToThePage() {
        // The '<' of the converter's template, title included: the names add none.
        long templateTags = tagOpenings(Rendered.flameGraph(sample()));
        Set<Character> lengthCodes = new TreeSet<>();
        Set<String> codedMarkup = new TreeSet<>();
        for (int sharing = 0; sharing <= 95; sharing++) {
            String shared = "P".repeat(sharing);
            StackTreeSnapshot tree = namesEverywhere(RESTS.stream().map(rest -> shared + rest).toList());

            String html = Rendered.flameGraph(tree);

            String what = "names sharing " + sharing + " characters";
            String page = html.toLowerCase(Locale.ROOT);
            assertThat(page.split("</script", -1).length - 1).as(what + ": script ends (the template's two)")
                    .isEqualTo(2);
            assertThat(Stream.of("<!--", "<svg onload", "<img", "<script><").filter(page::contains))
                    .as(what + ": markup of the names'").isEmpty();
            assertThat(tagOpenings(html)).as(what + ": '<' in the page, all the template's").isEqualTo(templateTags);
            Set<String> drawn = new TreeSet<>(List.of("all"));
            for (int node = 1; node < tree.size(); node++) {
                drawn.add(ShownFrame.of(tree, node));
            }
            List<String> names = FlameGraphPage.names(html);
            assertThat(new TreeSet<>(names)).as(what + ": the names the page draws").isEqualTo(drawn);
            List<String> packed = FlameGraphPage.packedNames(html);
            for (int i = 1; i < packed.size(); i++) {
                lengthCodes.add(packed.get(i).charAt(0));
                for (String markup : List.of("</script>", "<!--<script>", "<script><img")) {
                    if (packed.get(i).startsWith(markup)) {
                        codedMarkup.add(place(names.get(i)) + " " + markup);
                    }
                }
            }
        }
        // The pages held the hazard: markup spelled by a length code and the rest of a name, at each place.
        assertThat(codedMarkup).hasSize(12).contains("thread group </script>", "method <!--<script>",
                "endpoint group <script><img", "span </script>");
        assertThat(lengthCodes).as("every shared length the page codes, 0 to 95").hasSize(96)
                .contains(' ', '<', '\\', '\'', (char) 0x7f);
    }

    /**
     * Each name as a thread's group, a (native: a Java frame's '/' becomes '.') method frame, an endpoint's group and
     * a trace's group: within each place the names are neighbours in the page.
     */
    private static StackTreeSnapshot namesEverywhere(List<String> names) {
        Frame run = Frame.java("app.Main.run");
        StackTree threads = new StackTree(64, 10_000, true);
        StackTree requests = new StackTree(64, 10_000, false);
        for (String name : names) {
            threads.accept(List.of(run), name, 1);
            requests.accept(List.of(run, new Frame(name, FrameKind.NATIVE)), null, 1);
            requests.accept(List.of(new Frame("GET /" + name, FrameKind.ENDPOINT), run), null, 1);
            requests.accept(List.of(new Frame("GET /y", FrameKind.ENDPOINT), new Frame("trace " + name,
                    FrameKind.TRACE), new Frame("00f067aa0ba902b7", FrameKind.SPAN), run), null, 1);
        }
        return TreeGroups.merged(threads.snapshot(), requests.snapshot());
    }

    private static String place(String name) {
        return name.startsWith("[trace ") ? "span" : name.startsWith("[GET /") ? "endpoint group"
                : name.startsWith("[") ? "thread group" : "method";
    }

    private static long tagOpenings(String html) {
        return html.chars().filter(c -> c == '<').count();
    }

    @Test
    void smallFramesCanBeLeftOut() {
        String all = Rendered.flameGraph(new FlameGraphRenderer("p", 0), sample());
        String big = Rendered.flameGraph(new FlameGraphRenderer("p", 20), sample());

        // Every frame drawn is one f(..)/n(..)/u(..) call in the page's data.
        assertThat(drawnFrames(all)).isEqualTo(sample().size());
        assertThat(drawnFrames(big)).isEqualTo(5);  // all, thread, run, loop, compute: the 10% branch is gone
    }

    private static long drawnFrames(String html) {
        return html.lines().filter(line -> line.matches("[fnu]\\(.*\\)")).count();
    }
}
