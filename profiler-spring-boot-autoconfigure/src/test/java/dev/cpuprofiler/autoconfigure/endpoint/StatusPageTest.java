package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.StoredProfiles;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.ErrorDescriptor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerDescriptors.StatusDescriptor;
import dev.cpuprofiler.autoconfigure.page.StatusFormat;
import dev.cpuprofiler.autoconfigure.page.StatusPageHeaders;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.internal.core.DefaultCpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.internal.session.ProfileStore;
import dev.cpuprofiler.SessionTrigger;
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
 * The status page without a web server: the operation's choice between page and JSON, the page's three static files
 * (a skeleton, its script, its style) under one fixed {@code Content-Security-Policy}, nothing inline and nothing from
 * elsewhere, and the JSON's {@code onDemand} that tells the script whether to offer the button. What the script draws
 * is checked in a browser ({@link StatusPageBrowserTest}); over HTTP: {@link CpuProfilerStatusPageHttpTest}.
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
        options.setDuration(java.time.Duration.ofSeconds(45));
        profiler = DefaultCpuProfiler.builder(options).fsRoot(root).clock(Clock.fixed(NOW, ZoneOffset.UTC))
                .profileStore(new ProfileStore(10, 64L << 20, null)).workDirectory(root.resolve("work")).build();
        StoredProfiles.add(profiler, CpuProfilerEndpointFixtureTest.fixture("older", SessionTrigger.MANUAL, null));
        StoredProfiles.add(profiler, CpuProfilerEndpointFixtureTest.fixture("newest", SessionTrigger.CPU,
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
            assertThat(page.getContentType()).isEqualTo(MimeType.valueOf("text/html;charset=UTF-8"));
            assertThat((String) page.getBody()).startsWith("<!DOCTYPE html>");
        }
        // The JSON in the type the client named, or the actuator's own (no header: null here).
        for (StatusFormat accept : new StatusFormat[] {null, StatusFormat.V3, StatusFormat.V2, StatusFormat.JSON}) {
            WebEndpointResponse<?> json = endpoint.statusOrPage(null, accept);
            assertThat(json.getStatus()).isEqualTo(200);
            assertThat(json.getContentType()).isEqualTo((accept == null ? StatusFormat.V3 : accept)
                    .getProducedMimeType());
            assertThat(json.getBody()).isInstanceOf(StatusDescriptor.class);
        }
        WebEndpointResponse<?> json = endpoint.statusOrPage("json", StatusFormat.HTML);
        assertThat(json.getContentType()).isEqualTo(MimeType.valueOf("application/json"));
        assertThat(json.getBody()).isInstanceOf(StatusDescriptor.class);

        // A refusal is JSON whatever the client accepts.
        for (StatusFormat accept : new StatusFormat[] {null, StatusFormat.HTML}) {
            WebEndpointResponse<?> bad = endpoint.statusOrPage("xml", accept);
            assertThat(bad.getStatus()).isEqualTo(400);
            assertThat(bad.getContentType()).isEqualTo(MimeType.valueOf("application/json"));
            assertThat(((ErrorDescriptor) bad.getBody()).message()).startsWith(
                    "Unknown format 'xml': use html or json");
        }
    }

    @Test
    void thePageIsStaticItsScriptAndStyleComeFromTheEndpointUnderOneFixedPolicy() {
        CpuProfilerEndpoint endpoint = endpoint(true);
        String html = (String) endpoint.statusOrPage("html", null).getBody();
        assertThat(endpoint(false).statusOrPage("html", null).getBody()).as("the same page whatever the state")
                .isEqualTo(html);
        assertThat(html).doesNotContain("newest").doesNotContain("older").doesNotContain("app.Burner");
        assertThat(all(html, "<script\\b([^>]*)>")).containsExactly(" src=\"cpuprofiler/status-page.js\" defer");
        assertThat(html).contains("<script src=\"cpuprofiler/status-page.js\" defer></script>")
                .contains("<link rel=\"stylesheet\" href=\"cpuprofiler/status-page.css\">")
                .doesNotContain("<style").doesNotContain(" style=\"").doesNotContain(" onclick=");

        WebEndpointResponse<?> script = endpoint.profile("status-page.js", "text", "only", null, null, null);
        assertThat(script.getStatus()).isEqualTo(200);
        assertThat(script.getContentType()).isEqualTo(MimeType.valueOf("text/javascript;charset=UTF-8"));
        assertThat((String) script.getBody()).contains("function render(s)");
        WebEndpointResponse<?> style = endpoint.profile("status-page.css", null, null, null, null, null);
        assertThat(style.getContentType()).isEqualTo(MimeType.valueOf("text/css;charset=UTF-8"));
        assertThat((String) style.getBody()).contains("--threshold");

        assertThat(StatusPageHeaders.POLICY).isEqualTo("default-src 'none'; style-src 'self'; script-src 'self'; "
                + "connect-src 'self'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
        // Any other id is a profile's, as before.
        assertThat(endpoint.profile("status-page.html", null, null, null, null, null).getStatus()).isEqualTo(404);
    }

    @Test
    void theJsonTellsThePageWhetherToOfferTheButtonAndForHowLong() {
        assertThat(endpoint(true).status().onDemand()).satisfies(o -> {
            assertThat(o.allowed()).isTrue();
            assertThat(o.defaultDuration()).isEqualTo(Duration.ofSeconds(45));
        });
        assertThat(endpoint(false).status().onDemand().allowed()).isFalse();
    }

    @Test
    void loadsNothingFromElsewhere() {
        String html = (String) endpoint(true).statusOrPage("html", null).getBody();
        String script = (String) endpoint(true).profile("status-page.js", null, null, null, null, null).getBody();
        String style = (String) endpoint(true).profile("status-page.css", null, null, null, null, null).getBody();
        List<String> targets = all(html, "\\b(?:src|href|action)\\s*=\\s*[\"']([^\"']*)");
        assertThat(targets).isNotEmpty().allSatisfy(t -> assertThat(t).startsWith("cpuprofiler"));
        // The one absolute URL is SVG's namespace name (a name, never fetched), in the chart and the script.
        for (String text : List.of(html, script)) {
            assertThat(all(text, "(https?://[^\"' )]*)")).isNotEmpty()
                    .allSatisfy(u -> assertThat(u).isEqualTo("http://www.w3.org/2000/svg"));
        }
        assertThat(all(script, "fetch\\('([^'?]*)")).isNotEmpty()
                .allSatisfy(u -> assertThat(u).isEqualTo("cpuprofiler"));
        assertThat(style).doesNotContain("http").doesNotContain("url(").doesNotContain("@import");
        assertThat(html + script).doesNotContain("url(").doesNotContain("@import").doesNotContain("//cdn")
                .doesNotContain("innerHTML").doesNotContain("insertAdjacentHTML").doesNotContain("document.write");
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
