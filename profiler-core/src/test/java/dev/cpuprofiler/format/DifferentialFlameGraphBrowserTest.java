package dev.cpuprofiler.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.LookbackView;
import dev.cpuprofiler.fixtures.Chromium;
import dev.cpuprofiler.format.ProfileView.Compare;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differential flame graph ({@code ?format=html&compare=reference}) as Chromium draws it: the cost profile
 * against its reference ({@link ComparedProfiles}), in the converter's diff colours, each frame as wide as in the
 * profile. {@code Ledger.sum}, whose own time grew the most per second, is the deepest red, across the 89% of the
 * width its requests take; {@code Ledger.audit}, which the reference never ran, yellow across 71%; the poller, which
 * ran less, blue; the frames that ran as much (the root, {@code Thread.run}, {@code Orbit.step}) grey. Skipped where
 * no Chromium is installed.
 */
class DifferentialFlameGraphBrowserTest {

    /** The converter's colours: the largest growth, a frame not in the base, no change ({@code getDiffColor}). */
    private static final int DEEPEST_RED = 0xff6060;
    private static final int NEW_YELLOW = 0xffdd33;
    private static final int SAME_GREY = 0xe0e0e0;
    /** Poller.poll: 150 less of 1200 at most, {@code 96 + 128 * (1200 - 150) / 1200} = 208 of red and green. */
    private static final int LESS_BLUE = 0xd0d0ff;

    @TempDir
    Path dir;

    @Test
    void growthIsRedNewIsYellowLessIsBlueTheSameGrey() throws Exception {
        String browser = Chromium.browserOrSkip("DifferentialFlameGraphBrowserTest");
        Path html = dir.resolve("diff.html");
        Files.write(html, Written.bytes(ProfileFormat.HTML, ComparedProfiles.cost(), ProfileView.of(
                LookbackView.INCLUDE).comparedWith(Compare.with(ComparedProfiles.reference()))));
        Path png = Files.createDirectories(Path.of("target")).resolve("flame-graph-diff.png").toAbsolutePath();
        Chromium.run(browser, "--screenshot=" + png, "--window-size=1200,400", "--virtual-time-budget=3000",
                html.toUri().toString());

        BufferedImage image = ImageIO.read(png.toFile());
        System.out.printf("DifferentialFlameGraphBrowserTest: %s, widest rows: red %d%%, yellow %d%%, grey %d%%, "
                + "blue %d px%n", png, widestPercent(image, DEEPEST_RED), widestPercent(image, NEW_YELLOW),
                widestPercent(image, SAME_GREY), widestPixels(image, LESS_BLUE));
        // Each bar is as wide as its samples' share of the 1180-px canvas (98% of the window); its label (black text,
        // anti-aliased) takes a few points of it: measured 98% grey, 87% red, 69% yellow, 13 px blue. The bounds leave
        // the labels up to 7 points, a font of another width.
        assertThat(widestPercent(image, SAME_GREY)).as("the root, as wide as the graph").isGreaterThanOrEqualTo(91);
        assertThat(widestPercent(image, DEEPEST_RED)).as("Ledger.sum, 89%% of the samples").isBetween(80, 88);
        assertThat(widestPercent(image, NEW_YELLOW)).as("Ledger.audit, 71%% of the samples").isBetween(62, 70);
        assertThat(widestPixels(image, LESS_BLUE)).as("Poller.poll, 1.1%% of the samples").isPositive();
    }

    /** The most pixels of that colour in one row, in percent of the width. */
    private static int widestPercent(BufferedImage image, int rgb) {
        return widestPixels(image, rgb) * 100 / image.getWidth();
    }

    private static int widestPixels(BufferedImage image, int rgb) {
        int most = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            int count = 0;
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xffffff) == rgb) {
                    count++;
                }
            }
            most = Math.max(most, count);
        }
        return most;
    }
}
