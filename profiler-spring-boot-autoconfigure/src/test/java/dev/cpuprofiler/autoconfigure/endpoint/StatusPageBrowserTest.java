package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.test.AutoConfigureCpuProfiler;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.fixtures.Chromium;
import dev.cpuprofiler.autoconfigure.StoredProfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.Profile.TraceShare;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.testing.ProfileBuilder;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackTree;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The status page in a real browser: headless Chromium opens {@code /actuator/cpuprofiler} of a running application
 * (Spring MVC, real profiler, a busy thread, profiles in the store), loads the page's script and style from the
 * endpoint under its fixed policy, and the script draws everything from the JSON status: the cards, the chart with its
 * threshold line, the busy thread by name, a thread and a profile named as markup as text (no element made from them,
 * the profile's id URL-encoded in its links), the profiles newest first with a link to each format, the latest
 * profile's ratios, and the button (writes are allowed here). It saves a screenshot as
 * {@code target/cpuprofiler-status.png}. Skips, saying why, when no Chromium or Chrome is installed
 * ({@code .ci/run} installs Debian's {@code chromium} when it runs as root).
 */
// Its saturation card reads the saturation trigger, which a Spring test context runs only when asked.
@AutoConfigureCpuProfiler
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "management.endpoint.cpuprofiler.access=unrestricted",
            "profiler.cpu.threshold=60",
            "profiler.cpu.sampling-interval=200ms",
            "profiler.cpu.rolling-history-interval=2s",
            "profiler.cpu.average-window=4s",
            "profiler.cpu.rolling-history-size=1m",
            "profiler.cpu.startup-grace=10m",
            "profiler.cpu.trace-url-template=https://tempo.example/trace/{traceId}"
        })
@DirtiesContext
class StatusPageBrowserTest {

    private static final String BUSY = "status-page-busy-worker";
    private static final String PROFILE_ID = "20260101T000000Z-cpu-1";

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler profiler;

    @Test
    void theRenderedPageShowsChartThreadsAndProfiles() throws Exception {
        String browser = Chromium.browserOrSkip("StatusPageBrowserTest");

        StackTree tree = new StackTree(64, 1000, false);
        tree.accept(List.of(Frame.java("app.Main.run"), Frame.java("app.Hot.spin")), BUSY, 40);
        Instant now = Instant.now();
        StoredProfiles.add(profiler, ProfileBuilder.profile(PROFILE_ID, SessionTrigger.CPU, tree.snapshot())
                .engine(EngineChoice.JFR_EXECUTION, "jdk.ExecutionSample").between(now.minusSeconds(12),
                        now.minusSeconds(4)).build());
        StoredProfiles.add(profiler, CpuProfilerEndpointFixtureTest.fixture("older", SessionTrigger.MANUAL, null));
        StoredProfiles.add(profiler, CpuProfilerEndpointFixtureTest.fixture("newest", SessionTrigger.CPU,
                CpuProfilerEndpointFixtureTest.lookback()));
        StoredProfiles.add(profiler, CpuProfilerEndpointFixtureTest.fixture(StatusPageTest.HOSTILE, SessionTrigger.MANUAL,
                null));
        // The latest: with endpoints, for the "CPU by endpoint" table.
        Profile base = CpuProfilerEndpointFixtureTest.fixture("with-endpoints", SessionTrigger.CPU, null);
        StoredProfiles.add(profiler, ProfileBuilder.copy(base).requests(new Profile.Requests(List.of(
                new EndpointShare("GET /owners/{id}", 60, 60.0, 240L, 2.5),
                new EndpointShare("[no request]", 40, 40.0, null, null)), base.tree(),
                List.of(new TraceShare("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7", "GET /owners/{id}", 12,
                        120.0)), null)).build());

        AtomicBoolean busy = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (String name : List.of(BUSY, StatusPageTest.HOSTILE)) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (busy.get()) {
                    x = CpuProfilerEndpointHttpTest.burnInTheEndpointTest(x);
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, name);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
        try {
            Http http = new Http(port);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                    .until(() -> CpuProfilerStatusPageHttpTest.listsThread(http, BUSY)
                            && CpuProfilerStatusPageHttpTest.listsThread(http, StatusPageTest.HOSTILE));
            // A few seconds of history, so the chart has a line and a baseline step to draw.
            await().atMost(Duration.ofSeconds(30)).until(() -> http.json("/actuator/cpuprofiler").path("history")
                    .path("baseline").size() >= 2);
            String url = "http://localhost:" + port + "/actuator/cpuprofiler";

            // Virtual time lets the page's first draw and its 5-second refresh run before the DOM is dumped: all
            // that is checked below was drawn by the script from the JSON status (the page itself holds no data).
            String dom = Chromium.run(browser, "--dump-dom", "--virtual-time-budget=8000", url);
            assertThat(dom).containsPattern("<body data-refreshes=\"[1-9]");
            assertThat(dom).contains("<svg id=\"cpu-chart\"").contains("threshold 60%")
                    // threshold 60%: y = 10 + 186 × 0.4
                    .containsPattern("id=\"chart-threshold\"[^>]* y1=\"84.4\" y2=\"84.4\"")
                    .containsPattern("id=\"chart-samples\" [^>]*points=\"[0-9]");
            assertThat(dom).containsPattern("<p id=\"card-average\">[^<]* / 60.0%</p>")
                    .containsPattern("<p id=\"card-highest\" class=\"muted\">highest in the last [^<]+: [0-9.]+% of 60.0%</p>")
                    .containsPattern("<p id=\"card-source\">[^<]*effective CPUs")
                    // Beside the CPU: the hottest application thread (a busy one here) and the saturation threshold.
                    .containsPattern("<p id=\"card-saturation\">[^<]+ [0-9.]+% of a core over [^<]+ / threshold 90.0%</p>")
                    .containsPattern("<span id=\"state\" class=\"badge state-(monitoring|profiling|cooldown)\">");
            assertThat(dom).contains(">" + BUSY + "<");
            assertThat(dom).contains("<td class=\"name\">&lt;img src=x onerror=alert(1)&gt;</td>")
                    .doesNotContain("<img");
            // encodeURIComponent: a path segment (a space is %20), parentheses left as they are
            assertThat(dom).contains("href=\"cpuprofiler/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E?format=html\"");
            assertThat(dom).contains("href=\"cpuprofiler/" + PROFILE_ID + "?format=html\"");
            assertThat(dom.indexOf("cpuprofiler/newest?format=html")).isPositive()
                    .isLessThan(dom.indexOf("cpuprofiler/older?format=html"));
            // The files saved under the profile's name: the endpoint names none (no Content-Disposition).
            assertThat(dom).contains("<a href=\"cpuprofiler/newest?format=text\">text</a>",
                    "<a href=\"cpuprofiler/newest?format=collapsed\">collapsed</a>",
                    "<a href=\"cpuprofiler/newest?format=pprof\" download=\"newest.pb.gz\">pprof</a>");
            assertThat(dom).as("no recording kept: no jfr link").doesNotContain("format=jfr");
            assertThat(dom).contains("<td class=\"name\">GET /owners/{id}</td><td class=\"num\">60.0%</td>"
                    + "<td class=\"num\">240</td><td class=\"num\">2.5 ms</td>")
                    .contains("<td class=\"name\">[no request]</td><td class=\"num\">40.0%</td><td class=\"num\">"
                            + "\u2013</td>")
                    .contains("href=\"cpuprofiler/with-endpoints?format=html&amp;group=endpoint\"")
                    .contains("<td class=\"name\"><a href=\"https://tempo.example/trace/4bf92f3577b34da6a3ce929d0e0e4736\""
                            + " rel=\"noreferrer\">4bf92f3577b34da6a3ce929d0e0e4736</a></td><td class=\"name\">GET "
                            + "/owners/{id}</td><td class=\"num\">12</td><td class=\"num\">120 ms</td>");
            // Two CPU figures, each saying what it measures.
            assertThat(dom).contains("of the effective CPUs</dd>").contains("the Java threads alone (no GC or JIT");
            assertThat(dom).contains("app.Burner.burn").contains("<dt>Utilization</dt>")
                    .contains("<dt>Bottleneck</dt>");
            assertThat(dom).contains("<p id=\"start-form\" class=\"row\">").contains("<button id=\"start\"")
                    .containsPattern("<p id=\"writes-off\" hidden=\"\"");

            Path target = Path.of("target");
            Files.createDirectories(target);
            // The whole page at once, also for docs/endpoint.md and README (docs/status-page.png).
            Path screenshot = target.resolve("cpuprofiler-status-page.png").toAbsolutePath();
            Files.deleteIfExists(screenshot);
            Chromium.run(browser, "--screenshot=" + screenshot, "--window-size=1280,1400", url);
            assertThat(screenshot).exists();
            assertThat(Files.size(screenshot)).isGreaterThan(10_000);
            System.out.println("StatusPageBrowserTest: screenshot at " + screenshot);
        } finally {
            busy.set(false);
            for (Thread t : threads) {
                t.join();
            }
        }
    }
}
