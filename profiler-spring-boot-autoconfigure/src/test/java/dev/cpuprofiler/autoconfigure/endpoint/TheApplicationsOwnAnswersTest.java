package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * The starter is a guest in the application: the application's own answers, and the other actuator endpoints', are
 * byte for byte and header for header what they are without the starter, whatever the client sends (a malformed body,
 * a browser's {@code Accept}, the status page's request for a CSRF token, a path next to the endpoint's), with
 * Spring MVC and WebFlux alike. Each stack runs twice, with the starter and without it (every auto-configuration of
 * it excluded), side by side.
 */
class TheApplicationsOwnAnswersTest {

    private static final String STARTER = Stream.of("CpuProfilerAutoConfiguration", "CpuProfilerOffAutoConfiguration",
            "CpuProfilerMetricsAutoConfiguration", "CpuProfilerObservationAutoConfiguration",
            "CpuProfilerEndpointAutoConfiguration", "export.CpuProfilerExportAutoConfiguration")
            .map(name -> "dev.cpuprofiler.autoconfigure." + name).reduce((a, b) -> a + "," + b).orElseThrow();

    private static final Map<WebApplicationType, ConfigurableApplicationContext> WITH = new EnumMap<>(
            WebApplicationType.class);
    private static final Map<WebApplicationType, ConfigurableApplicationContext> WITHOUT = new EnumMap<>(
            WebApplicationType.class);

    /** The application's own controller, the same with Spring MVC and WebFlux. */
    @RestController
    static class HelloController {

        @GetMapping("/hello")
        Map<String, String> hello() {
            return Map.of("hello", "world");
        }

        @PostMapping("/hello")
        Map<String, String> echo(@RequestBody Map<String, String> body) {
            return body;
        }
    }

    @BeforeAll
    static void startTheApplications() {
        for (WebApplicationType type : List.of(WebApplicationType.SERVLET, WebApplicationType.REACTIVE)) {
            WITH.put(type, start(type, "profiler.cpu.enabled=false"));
            WITHOUT.put(type, start(type, "spring.autoconfigure.exclude=" + STARTER));
        }
    }

    @AfterAll
    static void stopTheApplications() {
        Stream.concat(WITH.values().stream(), WITHOUT.values().stream()).forEach(ConfigurableApplicationContext::close);
    }

    private static ConfigurableApplicationContext start(WebApplicationType type, String property) {
        return new SpringApplicationBuilder(EndpointTestApplication.class, HelloController.class).web(type)
                .properties("server.port=0", "management.endpoints.web.exposure.include=cpuprofiler,health",
                        "spring.main.banner-mode=off", property)
                .run();
    }

    private static Http http(Map<WebApplicationType, ConfigurableApplicationContext> apps, WebApplicationType type) {
        return new Http(Integer.parseInt(apps.get(type).getEnvironment().getProperty("local.server.port")));
    }

    /** A request: method, path, body (null: none) and headers (name, value, …). */
    record Ask(String method, String path, String body, String... headers) {

        HttpResponse<String> to(Http http) {
            return http.request(method, path, body, headers);
        }

        @Override
        public String toString() {
            return method + " " + path + " " + Arrays.toString(headers) + (body == null ? "" : " " + body);
        }
    }

    static Stream<Arguments> applicationRequests() {
        String browser = CpuProfilerStatusPageHttpTest.BROWSER_ACCEPT;
        List<Ask> asks = List.of(
                new Ask("GET", "/hello", null, "Accept", "application/json"),
                new Ask("GET", "/hello", null, "Accept", browser),
                new Ask("GET", "/hello", null, "Accept", "application/json", "CpuProfiler-Csrf", "ask"),
                new Ask("POST", "/hello", "{nope", "Content-Type", "application/json", "Accept", "application/json"),
                new Ask("POST", "/hello", "{nope", "Content-Type", "application/json", "Accept", browser),
                new Ask("POST", "/hello", "{\"a\":\"b\"}", "Content-Type", "application/json"),
                new Ask("POST", "/hello", "duration=5s", "Content-Type", "application/x-www-form-urlencoded"),
                new Ask("GET", "/actuator/health", null, "Accept", "application/json", "CpuProfiler-Csrf", "ask"),
                new Ask("GET", "/actuator/health", null, "Accept", browser),
                // Next to the endpoint's paths, not on them.
                new Ask("GET", "/actuator/cpuprofilerx", null, "Accept", browser),
                new Ask("GET", "/actuator/health/status-page.js", null, "Accept", "*/*"),
                new Ask("GET", "/hello/actuator/cpuprofiler", null, "Accept", browser, "CpuProfiler-Csrf", "ask"));
        List<Arguments> all = new ArrayList<>();
        for (WebApplicationType type : List.of(WebApplicationType.SERVLET, WebApplicationType.REACTIVE)) {
            asks.forEach(ask -> all.add(Arguments.of(type, ask)));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("applicationRequests")
    void theApplicationsAnswersAreAsWithoutTheStarter(WebApplicationType type, Ask ask) {
        HttpResponse<String> without = ask.to(http(WITHOUT, type));
        HttpResponse<String> with = ask.to(http(WITH, type));
        assertThat(with.statusCode()).as("status, body %s", with.body()).isEqualTo(without.statusCode());
        assertThat(comparable(with.body())).isEqualTo(comparable(without.body()));
        boolean sameLength = with.body().length() == without.body().length();
        assertThat(headers(with, sameLength)).isEqualTo(headers(without, sameLength));
        if (!ask.path().startsWith("/actuator") && !ask.path().contains("cpuprofiler")) {
            assertThat(with.body()).as("the application's own answer").doesNotContain("cpuprofiler");
        }
    }

    /** The body, its moment and request id aside (error answers, JSON or WebFlux's page, carry them). */
    private static String comparable(String body) {
        return body.replaceAll("\"timestamp\":\"[^\"]*\"", "\"timestamp\":\"…\"")
                .replaceAll("\"requestId\":\"[^\"]*\"", "\"requestId\":\"…\"")
                // Spring MVC's and WebFlux's error pages: their moment, and WebFlux's request id after it.
                .replaceAll("<div id='created'>[^<]*</div>", "<div id='created'>…</div>")
                .replaceAll("<div id='created'>…</div><div>\\[[^]]*]", "<div id='created'>…</div><div>[…]");
    }

    /** Every header but {@code Date}, and {@code Content-Length} unless the bodies are as long. */
    private static Map<String, List<String>> headers(HttpResponse<String> r, boolean withLength) {
        Map<String, List<String>> headers = new TreeMap<>(r.headers().map());
        headers.remove("date");
        if (!withLength) {
            headers.remove("content-length");
        }
        return headers;
    }
}
