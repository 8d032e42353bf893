package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.autoconfigure.page.StatusPageHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /actuator/cpuprofiler} over real HTTP with Spring MVC: the page for a browser and for {@code ?format=html},
 * the JSON, in the very type it always had, for every other client; the page's headers on the page's paths alone
 * (its {@code Content-Security-Policy} never on a profile: the flame graph runs its own inline script); and a thread
 * whose name is markup shown as text. {@link CpuProfilerEndpointWebFluxTest} checks the same with WebFlux.
 */
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "profiler.cpu.enabled=false",
            "profiler.cpu.sampling-interval=200ms"
        })
@DirtiesContext
class CpuProfilerStatusPageHttpTest {

    /** What Chromium sends when it opens a page. */
    static final String BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,"
            + "image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
    static final String PATH = "/actuator/cpuprofiler";

    private static final AtomicBoolean burning = new AtomicBoolean(true);
    private static Thread hostile;

    @LocalServerPort
    int port;

    /** A busy thread named as markup, so that it is among the top threads. */
    @BeforeAll
    static void startAHostileThread() {
        hostile = new Thread(() -> {
            long x = 0;
            while (burning.get()) {
                x = CpuProfilerEndpointHttpTest.burnInTheEndpointTest(x);
                try {
                    Thread.sleep(1); // busy enough to be listed, calm enough not to slow the other tests
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, StatusPageTest.HOSTILE);
        hostile.setDaemon(true);
        hostile.start();
    }

    @AfterAll
    static void stopIt() throws InterruptedException {
        burning.set(false);
        hostile.join();
    }

    @ParameterizedTest(name = "Accept: {0}")
    @CsvSource(delimiter = '|', nullValues = "NONE", value = {
        "NONE | application/vnd.spring-boot.actuator.v3+json",
        "*/* | application/vnd.spring-boot.actuator.v3+json",
        "application/json | application/json",
        "application/vnd.spring-boot.actuator.v3+json | application/vnd.spring-boot.actuator.v3+json",
        "application/vnd.spring-boot.actuator.v2+json | application/vnd.spring-boot.actuator.v2+json",
        "'application/json, text/html' | application/json",
        "'application/json, */*;q=0.5' | application/json"
    })
    void everyClientButABrowserGetsTheJsonAsBefore(String accept, String type) {
        HttpResponse<String> r = new Http(port).send("GET", PATH, accept, null, null);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith(type));
        assertThat(Http.parse(r.body()).path("state").asString()).isEqualTo("DISABLED");
    }

    @ParameterizedTest(name = "Accept: {0}")
    @CsvSource(delimiter = '|', nullValues = "NONE", value = {
        BROWSER_ACCEPT + " | ",
        "text/html | ",
        "NONE | ?format=html",
        "application/json | ?format=html"
    })
    void aBrowserOrFormatHtmlGetsThePageWithItsPolicy(String accept, String query) {
        assertPage(new Http(port).send("GET", PATH + (query == null ? "" : query), accept, null, null));
    }

    @Test
    void formatJsonIsJsonAndAnyOtherFormatIs400InJsonEvenForABrowser() {
        Http http = new Http(port);
        HttpResponse<String> json = http.send("GET", PATH + "?format=json", BROWSER_ACCEPT, null, null);
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(json.headers().firstValue("Content-Type")).hasValue("application/json");
        for (String accept : new String[] {null, BROWSER_ACCEPT, "text/html"}) {
            HttpResponse<String> bad = http.send("GET", PATH + "?format=xml", accept, null, null);
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(bad.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(Http.parse(bad.body()).path("message").asString())
                    .startsWith("Unknown format 'xml': use html or json");
        }
    }

    /** A profile's answers, a refusal or a flame graph, carry none of the page's headers. */
    @Test
    void noProfileGetsThePagesHeaders() {
        Http http = new Http(port);
        for (String path : new String[] {PATH + "/no-such-profile", PATH + "/no-such-profile?format=html",
            PATH + "/status-page.html", PATH + "x/status-page.js"}) {
            HttpResponse<String> r = http.send("GET", path, BROWSER_ACCEPT, null, null);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            for (String header : StatusPageHeaders.HEADERS.keySet()) {
                assertThat(r.headers().firstValue(header)).as("%s on %s", header, path).isEmpty();
            }
        }
    }

    @Test
    void aThreadNamedAsMarkupReachesThePageOnlyAsJson() {
        Http http = new Http(port);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                .until(() -> listsThread(http, StatusPageTest.HOSTILE));
        // The page holds no data: its script sets every name with textContent (StatusPageBrowserTest).
        String html = assertPage(http.send("GET", PATH, BROWSER_ACCEPT, null, null));
        assertThat(html).doesNotContain("img src=x");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "status-page.js | text/javascript;charset=UTF-8 | function render(s)",
        "status-page.css | text/css;charset=UTF-8 | --threshold"
    })
    void thePagesScriptAndStyleComeFromTheEndpointWithThePagesHeaders(String file, String type, String content) {
        // What a browser sends for a script and for a style sheet.
        for (String accept : new String[] {"*/*", "text/css,*/*;q=0.1"}) {
            HttpResponse<String> r = new Http(port).send("GET", PATH + "/" + file, accept, null, null);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue(type);
            assertThat(r.headers().firstValue("Content-Security-Policy")).hasValue(StatusPageHeaders.POLICY);
            assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
            assertThat(r.body()).contains(content);
        }
    }

    static boolean listsThread(Http http, String name) {
        for (JsonNode t : http.json(PATH).path("threads")) {
            if (t.path("name").asString().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The page with its fixed policy, loading its script and style from the endpoint; returns the page. */
    static String assertPage(HttpResponse<String> r) {
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/html;charset=UTF-8");
        assertThat(r.headers().firstValue("Content-Security-Policy")).hasValue(StatusPageHeaders.POLICY);
        assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-store");
        assertThat(r.headers().firstValue("Referrer-Policy")).hasValue("no-referrer");
        String html = r.body();
        assertThat(html).startsWith("<!DOCTYPE html>")
                .contains("<script src=\"cpuprofiler/status-page.js\" defer></script>")
                .contains("<link rel=\"stylesheet\" href=\"cpuprofiler/status-page.css\">")
                .contains("id=\"chart-threshold\"");
        return html;
    }
}
