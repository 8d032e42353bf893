package dev.cpuprofiler.secured;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.context.reactive.ReactiveWebApplicationContext;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * What an operator sees of the endpoint behind docs/security.md's recipe, CSRF protection on: an anonymous
 * client gets 401 (a browser the login page), a user without the role 403, {@code curl -u} with the role the JSON; a
 * {@code POST} without the CSRF token is refused, and the token the status answers carry starts a profile, sent as
 * the page's script sends it. Each subclass is one application: Spring MVC or WebFlux, with the session or the cookie
 * token repository; the cookie ones also press the page's button in a browser ({@link SecuredPageInBrowserChecks}).
 */
abstract class SecuredEndpointChecks {

    static final String OPERATOR = "operator:operator-password";
    static final String VIEWER = "viewer:viewer-password";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler profiler;

    @Autowired
    ApplicationContext context;

    /** The CSRF token repository this application was started with: {@code session} or {@code cookie}. */
    @Value("${secured.csrf-token-repository}")
    String tokenRepository;

    /** Which application this is, for messages and the screenshot's name: "mvc-session". */
    String name() {
        return (context instanceof ReactiveWebApplicationContext ? "webflux" : "mvc") + "-" + tokenRepository;
    }

    @Test
    void anAnonymousClientGets401AndABrowserTheLoginPage() throws Exception {
        int profiles = profiler.profiles().size();
        HttpResponse<String> json = send(HttpClient.newHttpClient(), get("/actuator/cpuprofiler", null)
                .header("Accept", "application/json"));
        assertThat(json.statusCode()).as("anonymous JSON").isEqualTo(401);
        HttpResponse<String> page = send(HttpClient.newHttpClient(), get("/actuator/cpuprofiler", null)
                .header("Accept", "text/html"));
        assertThat(page.statusCode()).as("anonymous browser").isEqualTo(302);
        assertThat(page.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l).endsWith("/login"));
        HttpResponse<String> post = send(HttpClient.newHttpClient(), post("/actuator/cpuprofiler?duration=1s", null));
        assertThat(post.statusCode()).as("anonymous POST").isIn(401, 403);
        assertThat(profiler.activeSession()).as("nothing started").isEmpty();
        assertThat(profiler.profiles()).as("nothing recorded").hasSize(profiles);
    }

    @Test
    void curlWithTheRoleReadsTheJsonAndAUserWithoutItIsForbidden() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> status = send(http, get("/actuator/cpuprofiler", OPERATOR)
                .header("Accept", "application/json"));
        assertThat(status.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(status.body()).path("state").asString()).isNotEmpty();
        assertThat(status.headers().firstValue("CpuProfiler-Csrf-Token")).as("no token unless the page asks")
                .isEmpty();
        assertThat(send(http, get("/actuator/cpuprofiler", VIEWER).header("Accept", "application/json"))
                .statusCode()).as("viewer reads").isEqualTo(403);
        // Spring MVC checks the CSRF token before the credentials (401), WebFlux after them (403): refused either way.
        assertThat(send(http, post("/actuator/cpuprofiler?duration=1s", VIEWER)).statusCode()).as("viewer starts")
                .isIn(401, 403);
    }

    /** Behind Spring Security's own headers, the page keeps its policy: no frame, its own script and style only. */
    @Test
    void thePageCarriesItsPolicyBehindSpringSecurity() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String path : List.of("/actuator/cpuprofiler", "/actuator/cpuprofiler/status-page.js")) {
            HttpResponse<String> page = send(http, get(path, OPERATOR).header("Accept", "text/html,*/*;q=0.8"));
            assertThat(page.statusCode()).as("%s: %s", name(), path).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Security-Policy")).as("%s: %s", name(), path)
                    .hasValueSatisfying(p -> assertThat(p).contains("frame-ancestors 'none'")
                            .contains("script-src 'self'"));
            assertThat(page.headers().allValues("X-Content-Type-Options")).containsExactly("nosniff");
            assertThat(page.headers().firstValue("Cache-Control")).hasValueSatisfying(c -> assertThat(c)
                    .contains("no-store"));
        }
    }

    @Test
    void aPostWithoutTheCsrfTokenIsRefusedAndWithThePagesTokenStartsAProfile() throws Exception {
        awaitNoSession();
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        HttpResponse<String> refused = send(http, post("/actuator/cpuprofiler?duration=1s", OPERATOR));
        assertThat(refused.statusCode()).as("POST without the CSRF token: CSRF protection is on").isIn(401, 403);
        assertThat(profiler.activeSession()).isEmpty();

        // What the page's script does: ask for the token with the status, send it back with the POST.
        HttpResponse<String> status = send(http, get("/actuator/cpuprofiler", OPERATOR)
                .header("Accept", "application/json").header("CpuProfiler-Csrf", "ask"));
        assertThat(status.statusCode()).isEqualTo(200);
        String header = status.headers().firstValue("CpuProfiler-Csrf-Header").orElseThrow();
        String token = status.headers().firstValue("CpuProfiler-Csrf-Token").orElseThrow();
        HttpResponse<String> started = send(http, post("/actuator/cpuprofiler?duration=1s", OPERATOR)
                .header(header, token));
        assertThat(started.statusCode()).as("%s: %s", name(), started.body()).isEqualTo(200);
        String id = JSON.readTree(started.body()).path("id").asString();
        await().atMost(Duration.ofSeconds(30)).until(() -> profiler.profile(id).isPresent());
    }

    /**
     * The page's token is made only on the endpoint's own paths: asked for anywhere else, by an anonymous client on an
     * open path or by a user on the application's, it makes no token, so no session and no cookie.
     */
    @Test
    void thePagesTokenIsMadeOnlyOnTheEndpointsPaths() throws Exception {
        for (HttpRequest.Builder request : List.of(get("/actuator/health", null), get("/hello", OPERATOR))) {
            HttpResponse<String> r = send(HttpClient.newHttpClient(), request.header("Accept", "application/json")
                    .header("CpuProfiler-Csrf", "ask"));
            assertThat(r.statusCode()).as("%s: %s", name(), r.uri()).isIn(200, 404);
            assertThat(r.headers().allValues("Set-Cookie")).as("%s: %s", name(), r.uri()).isEmpty();
            assertThat(r.headers().firstValue("CpuProfiler-Csrf-Token")).as("%s: %s", name(), r.uri()).isEmpty();
        }
    }

    void awaitNoSession() {
        await().atMost(Duration.ofSeconds(30)).until(() -> profiler.activeSession().isEmpty());
    }

    private HttpRequest.Builder get(String path, String user) {
        return authorized(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET(), user);
    }

    private HttpRequest.Builder post(String path, String user) {
        return authorized(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .POST(HttpRequest.BodyPublishers.noBody()).header("Accept", "application/json"), user);
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder request, String user) {
        return user == null ? request : request.header("Authorization", "Basic "
                + Base64.getEncoder().encodeToString(user.getBytes(StandardCharsets.UTF_8)));
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest.Builder request) throws Exception {
        return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
