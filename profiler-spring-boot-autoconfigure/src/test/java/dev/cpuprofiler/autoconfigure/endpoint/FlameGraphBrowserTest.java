package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.fixtures.Chromium;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.format.ProfileFormat;
import dev.cpuprofiler.format.ProfileView;
import dev.cpuprofiler.internal.stack.StackTree;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flame graph of a profile whose stacks are 150 frames deep, drawn by Chromium at its default window size: its
 * root frame, the one as wide as the graph, is in the screenshot, without scrolling. Upright, the root of such a graph
 * lies about 2,400 px down; the page opens as an icicle, root at the top.
 */
class FlameGraphBrowserTest {

    private static final int DEPTH = 150;

    @TempDir
    Path dir;

    @Test
    void aDeepProfilesRootIsInViewWhenThePageOpens() throws Exception {
        String browser = Chromium.browserOrSkip("FlameGraphBrowserTest");

        // Three branches under one root, each drawn in its own colour (Java, native, kernel frames): below the root no
        // row is one colour for more than half its width; only the root's row is.
        FrameKind[] kinds = {FrameKind.JAVA, FrameKind.NATIVE, FrameKind.KERNEL};
        StackTree tree = new StackTree(512, 100_000, false);
        for (int branch = 0; branch < kinds.length; branch++) {
            List<Frame> stack = new ArrayList<>();
            stack.add(Frame.java("java.lang.Thread.run"));
            for (int level = 1; level < DEPTH; level++) {
                stack.add(new Frame("deep" + branch + "_level" + level, kinds[branch]));
            }
            tree.accept(stack, "worker", 100 - branch * 30);
        }
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        Profile profile = ProfileBuilder.profile("deep", SessionTrigger.MANUAL, tree.snapshot())
                .between(start, start.plusSeconds(10)).build();
        Path html = dir.resolve("deep.html");
        Files.write(html, ProfileFormat.HTML.bytes(profile, ProfileView.of(LookbackView.INCLUDE)));
        Path png = Files.createDirectories(Path.of("target")).resolve("flame-graph-deep.png").toAbsolutePath();
        // No --window-size: Chromium's default viewport, as a reader's first look.
        Chromium.run(browser, "--screenshot=" + png, "--virtual-time-budget=3000", html.toUri().toString());

        BufferedImage image = ImageIO.read(png.toFile());
        int rootRow = widestUniformRow(image);
        System.out.printf("FlameGraphBrowserTest: %dx%d screenshot, a row %d%% one colour at y=%d%n", image.getWidth(),
                image.getHeight(), widestShare(image, rootRow), rootRow);
        assertThat(widestShare(image, rootRow)).as("a frame spanning the graph (the root) in the first screen")
                .isGreaterThanOrEqualTo(90);
    }

    /** The row with the most pixels of one colour that is not the page's white background. */
    private static int widestUniformRow(BufferedImage image) {
        int best = 0;
        int bestRow = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            int share = widestShare(image, y);
            if (share > best) {
                best = share;
                bestRow = y;
            }
        }
        return bestRow;
    }

    /** The share, in percent of the width, of the row's most frequent colour other than white. */
    private static int widestShare(BufferedImage image, int y) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (int x = 0; x < image.getWidth(); x++) {
            int rgb = image.getRGB(x, y) & 0xffffff;
            if (rgb != 0xffffff) {
                counts.merge(rgb, 1, Integer::sum);
            }
        }
        int most = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        return most * 100 / image.getWidth();
    }
}
