package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ErrorDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ProfileSummary;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.StatusDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ThreadDescriptor;
import dev.cpuprofiler.core.CpuProfiler;
import dev.cpuprofiler.core.CpuProfilerOptions;
import dev.cpuprofiler.session.ProfileStore;
import dev.cpuprofiler.session.SessionTrigger;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.util.MimeType;

/**
 * The status page without a web server: the operation's choice between page and JSON, the nonce that ties the page's
 * inline style and script to its {@code Content-Security-Policy}, escaping, and that the page loads nothing from
 * elsewhere. Over HTTP: {@link CpuProfilerStatusPageHttpTest}; in a browser: {@link StatusPageBrowserTest}.
 */
class StatusPageTest {

    static final String HOSTILE = "<img src=x onerror=alert(1)>";
    private static final Instant NOW = Instant.parse("2026-11-23T10:00:30Z");

    @TempDir
    Path root;

    private CpuProfiler profiler;

    @BeforeEach
    void buildTheFixture() throws IOException {
        CpuProfilerEndpointFixtureTest.fakeCgroupV2Container(root, "150000 100000", "0-3");
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setThreshold(25);
        profiler = CpuProfiler.builder(options).fsRoot(root).clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .profileStore(new ProfileStore(10, 64L << 20, null)).workDirectory(root.resolve("work")).build();
        profiler.profiles().add(CpuProfilerEndpointFixtureTest.fixture("older", SessionTrigger.MANUAL, null));
        profiler.profiles().add(CpuProfilerEndpointFixtureTest.fixture("newest", SessionTrigger.CPU,
                CpuProfilerEndpointFixtureTest.lookback()));
    }

    @AfterEach
    void close() {
        profiler.close();
    }

    private CpuProfilerEndpoint endpoint(boolean writesAllowed) {
        return new CpuProfilerEndpoint(profiler, () -> null, () -> writesAllowed);
    }

    @Test
    void htmlForABrowserOrFormatHtmlAndTheJsonOtherwise() {
        CpuProfilerEndpoint endpoint = endpoint(false);
        for (WebEndpointResponse<?> page : List.of(endpoint.statusOrPage(null, StatusFormat.HTML),
                endpoint.statusOrPage("html", null), endpoint.statusOrPage("HTML", StatusFormat.JSON))) {
            assertThat(page.getStatus()).isEqualTo(200);
            assertThat(page.getContentType().isCompatibleWith(MimeType.valueOf("text/html"))).isTrue();
            assertThat(page.getContentType().getParameter(StatusPage.NONCE_PARAMETER)).isNotBlank();
            assertThat((String) page.getBody()).startsWith("<!DOCTYPE html>");
        }
        // The JSON as before: the same body, the type left to content negotiation.
        for (StatusFormat accept : new StatusFormat[] {null, StatusFormat.ANY, StatusFormat.JSON}) {
            WebEndpointResponse<?> json = endpoint.statusOrPage(null, accept);
            assertThat(json.getStatus()).isEqualTo(200);
            assertThat(json.getContentType()).isNull();
            assertThat(json.getBody()).isInstanceOf(StatusDescriptor.class);
        }
        WebEndpointResponse<?> json = endpoint.statusOrPage("json", StatusFormat.HTML);
        assertThat(json.getContentType()).isEqualTo(MimeType.valueOf("application/json"));
        assertThat(json.getBody()).isInstanceOf(StatusDescriptor.class);

        WebEndpointResponse<?> bad = endpoint.statusOrPage("xml", null);
        assertThat(bad.getStatus()).isEqualTo(400);
        assertThat(((ErrorDescriptor) bad.getBody()).message()).startsWith("Unknown format 'xml': use html or json");
        WebEndpointResponse<?> badPage = endpoint.statusOrPage("xml", StatusFormat.HTML);
        assertThat(badPage.getStatus()).isEqualTo(400);
        assertThat((String) badPage.getBody()).contains("Unknown format &#39;xml&#39;: use html or json");
    }

    @Test
    void aFreshNonceForEachPageOnItsStyleAndScriptAndInThePolicy() {
        CpuProfilerEndpoint endpoint = endpoint(false);
        WebEndpointResponse<?> first = endpoint.statusOrPage("html", null);
        WebEndpointResponse<?> second = endpoint.statusOrPage("html", null);
        String nonce = first.getContentType().getParameter(StatusPage.NONCE_PARAMETER);
        assertThat(nonce).matches("[A-Za-z0-9_-]{24}")
                .isNotEqualTo(second.getContentType().getParameter(StatusPage.NONCE_PARAMETER));
        String html = (String) first.getBody();
        assertThat(all(html, "<style nonce=\"([^\"]*)\"")).containsExactly(nonce);
        assertThat(all(html, "<script nonce=\"([^\"]*)\"")).containsExactly(nonce);
        assertThat(all(html, "<(style|script)\\b")).hasSize(2); // nothing inline without the nonce
        assertThat(html).doesNotContain(" style=\"").doesNotContain(" onclick=");
        assertThat(StatusPage.policy(nonce)).isEqualTo("default-src 'none'; style-src 'nonce-" + nonce
                + "'; script-src 'nonce-" + nonce + "'; connect-src 'self'; img-src data:; base-uri 'none'; "
                + "form-action 'self'; frame-ancestors 'none'");
    }

    @Test
    void showsStateFiguresChartThreadsAndProfilesNewestFirstWithTheirLinks() {
        String html = (String) endpoint(false).statusOrPage("html", null).getBody();
        assertThat(html).contains("id=\"cpu-chart\"")
                // threshold 25%: y = 10 + 186 × 0.75
                .contains("<line id=\"chart-threshold\" class=\"threshold\" x1=\"40\" x2=\"950\" y1=\"149.5\" "
                        + "y2=\"149.5\"/>")
                .contains("threshold 25%")
                .contains("<p id=\"card-average\">– / 25.0%</p>")
                .contains("cgroup-v2, 1.5 effective CPUs");
        assertThat(html.indexOf("cpuprofiler/newest?format=html")).isPositive()
                .isLessThan(html.indexOf("cpuprofiler/older?format=html"));
        assertThat(html).contains("<a href=\"cpuprofiler/newest?format=text\">text</a>",
                "<a href=\"cpuprofiler/newest?format=collapsed\">collapsed</a>",
                "<a href=\"cpuprofiler/newest?format=pprof\">pprof</a>");
        assertThat(html).as("no recording kept: no jfr link").doesNotContain("format=jfr");
        assertThat(html).contains("app.Burner.burn").contains("<dt>Utilization</dt>").contains("<dt>Bottleneck</dt>");
    }

    @Test
    void offersTheButtonOnlyWhenWritesAreAllowed() {
        assertThat((String) endpoint(true).statusOrPage("html", null).getBody())
                .contains("<button id=\"start\" type=\"button\">").doesNotContain("writes-off");
        assertThat((String) endpoint(false).statusOrPage("html", null).getBody())
                .doesNotContain("<button").contains("management.endpoint.cpuprofiler.access: unrestricted");
    }

    @Test
    void namesAreTextNeverMarkup() {
        StatusDescriptor s = endpoint(false).status();
        ProfileSummary p = s.profiles().get(0);
        StatusDescriptor hostile = new StatusDescriptor(s.state(), s.cpu(), s.trigger(), s.session(),
                s.latestProfile(), List.of(new ProfileSummary(HOSTILE, p.trigger(), HOSTILE, p.startedAt(),
                        p.endedAt(), p.samples(), p.duration(), HOSTILE, HOSTILE)),
                List.of(new ThreadDescriptor(HOSTILE, 1, 99.5, "PT1S", "CPU_BOUND")), s.lookback(), s.disk(),
                s.export(), s.history());
        String html = new StatusPage(() -> true, Duration.ofSeconds(30)).render(hostile).html();
        assertThat(html).doesNotContain("<img").doesNotContain(HOSTILE)
                .contains("<td class=\"name\">&lt;img src=x onerror=alert(1)&gt;</td>")
                // in a link, the id is URL-encoded as well
                .contains("href=\"cpuprofiler/%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E?format=html\"");
    }

    @Test
    void loadsNothingFromElsewhere() {
        String html = (String) endpoint(true).statusOrPage("html", null).getBody();
        List<String> targets = all(html, "\\b(?:src|href|action)\\s*=\\s*[\"']([^\"']*)");
        assertThat(targets).isNotEmpty().allSatisfy(t -> assertThat(t).startsWith("cpuprofiler"));
        // The one absolute URL is SVG's namespace name (a name, never fetched), in the chart and the script.
        assertThat(all(html, "(https?://[^\"' )]*)")).isNotEmpty()
                .allSatisfy(u -> assertThat(u).isEqualTo("http://www.w3.org/2000/svg"));
        assertThat(html).doesNotContain("url(").doesNotContain("@import").doesNotContain("//cdn");
    }

    private static List<String> all(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }
}
