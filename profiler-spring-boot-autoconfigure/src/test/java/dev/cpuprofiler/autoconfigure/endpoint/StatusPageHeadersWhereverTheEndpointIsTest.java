package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.autoconfigure.page.StatusPageHeaders;
import java.net.http.HttpResponse;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The page's headers wherever the application puts the endpoint: below a dispatcher servlet's path with Spring MVC,
 * on a management port of its own with WebFlux (Spring MVC's is {@link CpuProfilerEndpointPathsTest}'s part); and
 * only there: the same path on the application's own port, next to the management server, gets none.
 */
class StatusPageHeadersWhereverTheEndpointIsTest {

    static Stream<Arguments> applications() {
        return Stream.of(
                Arguments.of(WebApplicationType.SERVLET, "/api/actuator/cpuprofiler",
                        new String[] {"spring.mvc.servlet.path=/api"}),
                // Both servers are on this module's class path, and both offer the reactive management context.
                Arguments.of(WebApplicationType.REACTIVE, "/manage/actuator/cpuprofiler",
                        new String[] {"management.server.port=0", "management.server.base-path=/manage",
                            "spring.main.allow-bean-definition-overriding=true"}));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("applications")
    void thePageHasItsHeadersAndNothingElseDoes(WebApplicationType type, String page, String[] properties) {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(EndpointTestApplication.class).web(type)
                .properties("server.port=0", "management.endpoints.web.exposure.include=cpuprofiler",
                        "profiler.cpu.enabled=false", "spring.main.banner-mode=off")
                .properties(properties).run()) {
            int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            int management = Integer.parseInt(app.getEnvironment().getProperty("local.management.port",
                    Integer.toString(port)));
            Http http = new Http(management);
            for (String path : new String[] {page, page + "/status-page.js", page + "/status-page.css"}) {
                HttpResponse<String> r = http.send("GET", path, CpuProfilerStatusPageHttpTest.BROWSER_ACCEPT, null,
                        null);
                assertThat(r.statusCode()).as(path).isEqualTo(200);
                assertThat(r.headers().firstValue("Content-Security-Policy")).as(path)
                        .hasValue(StatusPageHeaders.POLICY);
            }
            HttpResponse<String> profile = http.send("GET", page + "/no-such", null, null, null);
            assertThat(profile.statusCode()).isEqualTo(404);
            assertThat(profile.headers().firstValue("Content-Security-Policy")).isEmpty();
            if (management != port) {
                HttpResponse<String> elsewhere = new Http(port).send("GET", page, null, null, null);
                assertThat(elsewhere.statusCode()).isEqualTo(404);
                assertThat(elsewhere.headers().firstValue("Content-Security-Policy")).isEmpty();
            }
        }
    }
}
