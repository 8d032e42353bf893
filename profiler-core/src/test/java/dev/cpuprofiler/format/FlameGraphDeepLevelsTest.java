package dev.cpuprofiler.format;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import dev.cpuprofiler.StackTreeSnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import one.convert.Arguments;
import one.convert.CallStack;
import one.convert.FlameGraph;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The flame graph page of a stack 8192 frames deep can show every level: its script, run under Node with a fake
 * canvas that records what is drawn ({@code flamegraph-harness.js}), keeps its canvas within what browsers draw and
 * reaches the deepest frame by clicking the deepest frame in view a few times, as a user would. The converter's own
 * page cannot (levels past the canvas's 32767 pixels are never drawn). Skipped where Node is not installed.
 */
class FlameGraphDeepLevelsTest {

    private static final int DEPTH = 8192;
    private static final String LEAF = "app.Deep.leaf";

    @TempDir
    static Path dir;

    private static Path harness;

    @BeforeAll
    static void harness() throws IOException {
        String version;
        try {
            Process node = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            version = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assumeTrue(node.waitFor(30, TimeUnit.SECONDS) && node.exitValue() == 0, "node --version failed");
        } catch (IOException | InterruptedException e) {
            System.out.println("[skip] flame graph script check: Node.js is not installed here (" + e + ")");
            assumeTrue(false, "Node.js is not installed here");
            return;
        }
        System.out.println("[flame graph script check] node " + version);
        harness = dir.resolve("flamegraph-harness.js");
        try (InputStream in = FlameGraphDeepLevelsTest.class.getResourceAsStream("flamegraph-harness.js")) {
            Files.write(harness, in.readAllBytes());
        }
    }

    @Test
    void everyLevelOfAnAllowedDepthCanBeBroughtIntoView() throws Exception {
        String html = Rendered.flameGraph(chain());

        for (int devicePixelRatio : new int[] {1, 2}) {
            JsonNode result = run(html, devicePixelRatio);
            System.out.println("[flame graph " + DEPTH + " levels, device pixel ratio " + devicePixelRatio + "] "
                    + result);
            assertThat(result.get("backingHeight").asInt()).as("what browsers draw").isLessThanOrEqualTo(32767);
            assertThat(result.get("inside").asBoolean()).as("every frame drawn inside the canvas").isTrue();
            assertThat(result.get("reached").asBoolean()).as("the deepest level came into view").isTrue();
            assertThat(result.get("title").asString()).isEqualTo(LEAF);
            assertThat(result.get("clicks").asInt()).isBetween(1, 10);
        }
    }

    @Test
    void theConvertersOwnPageCannotShowTheDeepLevels() throws Exception {
        // What the library makes of the same stack, untouched: a canvas as high as 32767 CSS pixels allow.
        Arguments args = new Arguments();
        FlameGraph flameGraph = new FlameGraph(args);
        CallStack stack = new CallStack();
        for (Frame f : frames()) {
            stack.push(f.name(), (byte) 1);
        }
        flameGraph.addSample(stack, 1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Thread big = new Thread(null, () -> flameGraph.dump(new PrintStream(out, true, StandardCharsets.UTF_8)),
                "dump", 64L << 20);  // the converter recurses per level
        big.start();
        big.join();

        JsonNode dpr1 = run(out.toString(StandardCharsets.UTF_8), 1);
        JsonNode dpr2 = run(out.toString(StandardCharsets.UTF_8), 2);
        System.out.println("[flame graph untouched] " + dpr1 + " / " + dpr2);
        assertThat(dpr1.get("reached").asBoolean()).as("levels past 2047 never drawn").isFalse();
        assertThat(dpr2.get("backingHeight").asInt()).as("too high a canvas for browsers").isGreaterThan(32767);
    }

    @Test
    void graphsThatFitAreLeftAsTheConverterDrewThem() {
        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(List.of(Frame.java("app.Main.main"), Frame.java("app.Hot.compute")), null, 3);

        String html = Rendered.flameGraph(tree.snapshot());

        assertThat(html).contains("const canvasHeight = canvas.offsetHeight;").doesNotContain("let base = 0;");
    }

    @Test
    void everyEditFindsItsPlaceInTheConvertersTemplate() {
        String html = Rendered.flameGraph(chain());

        // All or nothing: one edit applied means all were (a changed template leaves the page untouched instead).
        assertThat(html).contains("let base = 0;", "if (h < base || h >= base + rows) continue;",
                "const h = base + Math.floor(", "(h - base + 1) * 16) + canvas.offsetTop)", "(root.level - base + 1)");
    }

    private static JsonNode run(String html, int devicePixelRatio) throws Exception {
        Path page = Files.createTempFile(dir, "page", ".html");
        Files.writeString(page, html);
        Process node = new ProcessBuilder("node", harness.toString(), page.toString(),
                Integer.toString(devicePixelRatio)).redirectErrorStream(true).start();
        String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).as(out).isTrue();
        assertThat(node.exitValue()).as(out).isZero();
        return JsonMapper.shared().readTree(out.strip().lines().reduce((a, b) -> b).orElseThrow());
    }

    /** One stack, every level a different method, so that a title names its level. */
    private static List<Frame> frames() {
        List<Frame> frames = new ArrayList<>();
        for (int i = 1; i < DEPTH; i++) {
            frames.add(Frame.java("app.Deep.level" + i));
        }
        frames.add(Frame.java(LEAF));
        return frames;
    }

    private static StackTreeSnapshot chain() {
        StackTree tree = new StackTree(DEPTH, 100_000, false);
        tree.accept(frames(), null, 10);
        return tree.snapshot();
    }
}
