package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.Comparison;
import dev.cpuprofiler.Profile.Comparison.MethodChange;
import dev.cpuprofiler.Profile.Comparison.Verdict;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.autoconfigure.StoredProfiles;
import dev.cpuprofiler.fixtures.Chromium;
import dev.cpuprofiler.internal.compare.ProfileComparator;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The status page's "What changed" box and its reference of normal, as headless Chromium draws them from the JSON
 * status of a running application. First with no reference: the card says none is recorded yet and the box says, in
 * one line, why the latest profile is not compared. Then with a reference recorded 12 minutes ago and a profile
 * compared with it by {@link ProfileComparator}: the card gives the reference's age and samples with a link to it,
 * the box one sentence per endpoint (an endpoint whose cost per request grew tenfold, one whose rate grew eightfold,
 * one with both, a new one named as markup, an unchanged one quieter), the methods that grew, and the links to the
 * differential views. Every name is text. Saves {@code target/cpuprofiler-what-changed.png}. Last, a profile in which nothing moved: one calm line, the unchanged endpoints folded. Skips,
 * saying why, without Chromium.
 */
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "profiler.cpu.threshold=95",
            "profiler.cpu.startup-grace=10m"
        })
@DirtiesContext
class WhatChangedBrowserTest {

    private static final String HOSTILE_METHOD = "<svg onload=alert(2)>";
    private static final Duration PERIOD = Duration.ofMillis(10);

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler profiler;

    @Test
    void theLatestProfileSaysWhatChangedFromNormalInWords() throws Exception {
        String browser = Chromium.browserOrSkip("WhatChangedBrowserTest");
        Instant now = Instant.now();
        String url = "http://localhost:" + port + "/actuator/cpuprofiler";
        Http http = new Http(port);
        await().atMost(Duration.ofSeconds(30)).until(() -> http.json("/actuator/cpuprofiler").path("history")
                .isObject());

        // No reference yet: the card and the box say so, calmly, in a line each.
        StoredProfiles.add(profiler, profile("20260101T000000Z-cpu-1", SessionTrigger.CPU, now.minusSeconds(90),
                Duration.ofSeconds(30), List.of(new Load("GET /ledger", 300, 93, 0))));
        String before = dom(browser, url);
        assertThat(before).contains("<p id=\"card-reference\">None yet: recorded while the application is calm</p>")
                .contains("<p id=\"changed-against\" class=\"muted\">Not compared with normal: no reference of normal "
                        + "yet (one is recorded while the application is calm).</p>")
                .containsPattern("<a id=\"changed-flame\" class=\"muted\" hidden=\"\"");

        // A reference of normal, 10 s recorded 12 minutes ago; then a profile of 30 s compared with it.
        Profile reference = StoredProfiles.add(profiler, profile("20260101T001000Z-reference-1",
                SessionTrigger.REFERENCE, now.minus(Duration.ofMinutes(12)).minusSeconds(10), Duration.ofSeconds(10),
                List.of(new Load("GET /orbit", 150, 53, 0), new Load("GET /ledger", 100, 31, 0),
                        new Load("GET /both", 100, 20, 0), new Load("GET /health", 50, 5, 0))));
        Profile spike = profile("20260101T002000Z-cpu-2", SessionTrigger.CPU, now.minusSeconds(40),
                Duration.ofSeconds(30), List.of(new Load("GET /orbit", 3600, 1296, 0),
                        // 3.1 → 31.6 ms a request: a new kernel takes most of it
                        new Load("GET /ledger", 300, 93, 855), new Load("GET /both", 900, 540, 0),
                        new Load("GET /health", 150, 15, 0), new Load(StatusPageTest.HOSTILE, 60, 12, 0)));
        Comparison comparison = ProfileComparator.compare(reference, spike);
        assertThat(comparison.endpoints()).extracting(e -> e.verdict()).containsExactly(Verdict.TRAFFIC, Verdict.COST,
                Verdict.BOTH, Verdict.UNCHANGED, Verdict.NEW);
        StoredProfiles.add(profiler, spike.withComparison(comparison));

        String dom = dom(browser, url);
        assertThat(dom).containsPattern("<p id=\"card-reference\"><a href=\"cpuprofiler/20260101T001000Z-reference-1"
                + "\\?format=html\" title=\"20260101T001000Z-reference-1\">recorded 12 min ago</a> \\(3,120 samples\\)"
                + "</p>");
        assertThat(dom).contains("<section id=\"changed-part\" class=\"wide\"><h2>What changed")
                .contains("Profile 20260101T002000Z-cpu-2 against the reference of normal 20260101T001000Z-reference-1")
                .contains("<a id=\"changed-flame\" class=\"muted\" href=\"cpuprofiler/20260101T002000Z-cpu-2"
                        + "?format=html&amp;compare=reference\">differential flame graph</a>")
                .contains("<a id=\"changed-collapsed\" class=\"muted\" href=\"cpuprofiler/20260101T002000Z-cpu-2"
                        + "?format=collapsed&amp;compare=reference\">");
        // What moved first, in the comparison's order; the unchanged endpoint last, quieter.
        assertThat(lines(dom)).containsExactly(
                "traffic|GET /orbit: 8.0× the requests (15 → 120 a second) at the same cost each",
                "cost|GET /ledger: each request costs 10.2× more (3.1 → 31.6 ms CPU) at the same rate",
                "both|GET /both: 3.0× the requests (10 → 30 a second) and each costs 3.0× more (2 → 6 ms CPU)",
                "new|&lt;img src=x onerror=alert(1)&gt;: new, not in the reference (2 a second, 2 ms CPU each)",
                "unchanged|GET /health: unchanged (5 → 5 a second, 1 → 1 ms CPU each)");
        MethodChange first = comparison.methods().get(0);
        assertThat(dom).contains(String.format(Locale.ROOT, "<td class=\"name\">%s</td><td class=\"num\">%.1f%% → "
                + "%.1f%%</td><td class=\"num\">+%.1f</td>", first.method(), first.referencePercent(),
                first.percent(), first.delta()));
        assertThat(dom).contains("app.Ledger.reconcile").contains("<td class=\"name\">&lt;svg onload=alert(2)&gt;</td>")
                .doesNotContain("<img").doesNotContain("<svg onload");

        Path target = Path.of("target");
        Files.createDirectories(target);
        Path screenshot = target.resolve("cpuprofiler-what-changed.png").toAbsolutePath();
        Files.deleteIfExists(screenshot);
        Chromium.run(browser, "--screenshot=" + screenshot, "--virtual-time-budget=3000", "--window-size=1280,1700", url);
        assertThat(screenshot).exists();
        System.out.println("WhatChangedBrowserTest: screenshot at " + screenshot);

        // Nothing moved: one calm line, the unchanged endpoints folded (more than three), no method grew.
        Profile calm = profile("20260101T003000Z-cpu-3", SessionTrigger.MANUAL, now.minusSeconds(35),
                Duration.ofSeconds(30), List.of(new Load("GET /orbit", 450, 159, 0),
                        new Load("GET /ledger", 300, 93, 0), new Load("GET /both", 300, 60, 0),
                        new Load("GET /health", 150, 15, 0)));
        StoredProfiles.add(profiler, calm.withComparison(ProfileComparator.compare(reference, calm)));
        String quiet = dom(browser, url);
        assertThat(quiet).contains("<ul id=\"changed-endpoints\" class=\"changes\"><li class=\"muted\">No endpoint "
                + "changed beyond the noise.</li></ul>")
                .contains("<details id=\"changed-unchanged\"><summary id=\"changed-unchanged-count\">4 endpoints "
                        + "unchanged</summary>")
                .contains("<td class=\"muted\" colspan=\"3\">No method's self time grew.</td>");
        assertThat(lines(quiet)).hasSize(4).allSatisfy(l -> assertThat(l).startsWith("unchanged|"))
                .contains("unchanged|GET /orbit: unchanged (15 → 15 a second, 3.5 → 3.5 ms CPU each)");
    }

    /** The page as the script drew it, after its first refresh. */
    private static String dom(String browser, String url) throws Exception {
        String dom = Chromium.run(browser, "--dump-dom", "--virtual-time-budget=3000", url);
        assertThat(dom).containsPattern("<body data-refreshes=\"[1-9]");
        return dom;
    }

    /** The box's endpoint lines as "verdict|text", markup left out but the text as the DOM holds it (escaped). */
    private static List<String> lines(String dom) {
        List<String> lines = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<li class=\"change verdict-(\\w+)\"><span "
                + "class=\"endpoint\">([^<]*)</span>([^<]*)</li>").matcher(dom);
        while (m.find()) {
            lines.add(m.group(1) + "|" + m.group(2) + m.group(3));
        }
        return lines;
    }

    /**
     * One endpoint's load in a made-up profile: its requests, the samples in its own method and in a kernel
     * ({@code app.Ledger.reconcile}) below it.
     */
    private record Load(String endpoint, long requests, long samples, long kernelSamples) {
    }

    /**
     * A profile of {@code duration} at 10 ms a sample: each endpoint's method, the hostile one named as markup, and
     * background work with no request (3011 samples each 10 s), which makes the reference's 3,120 samples.
     */
    private static Profile profile(String id, SessionTrigger trigger, Instant start, Duration duration,
            List<Load> loads) {
        StackTree tree = new StackTree(64, 100_000, false);
        long background = 3011 * duration.toSeconds() / 10;
        tree.accept(List.of(Frame.java("app.Main.run"), Frame.java("app.Background.idle")), "background", background);
        long total = background;
        for (Load l : loads) {
            String method = l.endpoint().equals(StatusPageTest.HOSTILE) ? HOSTILE_METHOD
                    : "app." + l.endpoint().substring(5, 6).toUpperCase(Locale.ROOT) + l.endpoint().substring(6)
                            + ".work";
            tree.accept(List.of(Frame.java("app.Main.run"), Frame.java(method)), "http-1", l.samples());
            if (l.kernelSamples() > 0) {
                tree.accept(List.of(Frame.java("app.Main.run"), Frame.java(method),
                        Frame.java("app.Ledger.reconcile")), "http-1", l.kernelSamples());
            }
            total += l.samples() + l.kernelSamples();
        }
        List<EndpointShare> endpoints = new ArrayList<>();
        for (Load l : loads) {
            long samples = l.samples() + l.kernelSamples();
            endpoints.add(new EndpointShare(l.endpoint(), samples, samples * 100.0 / total, l.requests(),
                    samples * (double) PERIOD.toMillis() / l.requests()));
        }
        endpoints.add(new EndpointShare("[no request]", background, background * 100.0 / total, null, null));
        return ProfileBuilder.profile(id, trigger, tree.snapshot())
                .engine(EngineChoice.JFR_EXECUTION, "jdk.ExecutionSample").between(start, start.plus(duration))
                .period(PERIOD).cpuPercent(40.0).endpoints(endpoints, null).build();
    }
}
