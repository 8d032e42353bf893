package dev.cpuprofiler.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.RunningSession;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpStatus;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;

/**
 * Every answer of the endpoint that is not a profile, over real HTTP, for each {@code Accept} a client may send: the
 * status is always the right one and the reason is always in the body, in JSON whatever the client accepts (no
 * header turns a refusal into a 406 or a 500).
 */
@SpringBootTest(classes = EndpointTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "management.endpoints.web.exposure.include=cpuprofiler",
            "management.endpoint.cpuprofiler.access=unrestricted",
            "profiler.cpu.enabled=false",
            "profiler.cpu.duration=45s"
        })
// Closed afterwards: a cached context would keep its profiler's threads running through every later test.
@DirtiesContext
class CpuProfilerEndpointStatusTest {

    static final String PATH = "/actuator/cpuprofiler";

    @LocalServerPort
    int port;

    @Autowired
    CpuProfiler profiler;

    Http http;

    @BeforeEach
    void setUp() {
        http = new Http(port);
        assertThat(profiler.activeSession()).isEmpty();
    }

    @AfterEach
    void stopTheSession() {
        profiler.cancelActive("the test is over");
        // Looked at at once and then every 20 ms, not after Awaitility's default 100 ms: most tests start no session,
        // and the 60 tests here waited 6 s for nothing.
        await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).atMost(Duration.ofSeconds(30))
                .until(() -> profiler.activeSession().isEmpty());
    }

    /** What a client sends as {@code Accept} (NONE: no header); each gets its answers in JSON. */
    enum Client {
        ANY("*/*"),
        JSON("application/json"),
        TEXT("text/plain"),
        HTML("text/html"),
        /** A browser names text/html and *&#47;*. */
        BROWSER(CpuProfilerStatusPageHttpTest.BROWSER_ACCEPT),
        NONE(null);

        final String accept;

        Client(String accept) {
            this.accept = accept;
        }
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void unknownProfileIs404(Client client) {
        HttpResponse<String> r = http.send("GET", PATH + "/no-such-profile", client.accept, null, null);
        assertRefused(r, 404, "No profile 'no-such-profile'");
        HttpResponse<String> text = http.send("GET", PATH + "/no-such-profile?format=text", client.accept, null, null);
        assertRefused(text, 404, "No profile 'no-such-profile'");
    }

    /** Every session here is cancelled before it ends, so no profile is ever stored in this application. */
    @ParameterizedTest
    @EnumSource(Client.class)
    void beforeAnyProfileLatestIs404AndTheStatusShowsNone(Client client) {
        assertThat(profiler.profiles().size()).isZero();
        assertRefused(http.send("GET", PATH + "/latest", client.accept, null, null), 404,
                "No profile 'latest': none recorded yet");
        JsonNode status = http.json(PATH);
        assertThat(status.path("latestProfile").isNull()).isTrue();
        assertThat(status.path("profiles").isArray()).isTrue();
        assertThat(status.path("profiles").isEmpty()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void unknownFormatIs400(Client client) {
        HttpResponse<String> r = http.send("GET", PATH + "/latest?format=bogus", client.accept, null, null);
        assertRefused(r, 400, "Unknown format 'bogus': use json, text");
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void unknownLookbackViewIs400(Client client) {
        HttpResponse<String> r = http.send("GET", PATH + "/latest?lookback=sometimes", client.accept, null, null);
        assertRefused(r, 400, "Unknown lookback 'sometimes': use include, exclude or only");
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void badDurationIs400AndStartsNothing(Client client) {
        assertRefused(postJson(client, "{\"duration\": \"forever\"}"), 400,
                "Invalid duration 'forever': use e.g. 30s, 2m, PT30S or a number of seconds");
        assertRefused(postJson(client, "{\"duration\": \"0s\"}"), 400,
                "Invalid duration '0s': must be between 1s and 1h");
        assertRefused(postJson(client, "{\"duration\": \"61m\"}"), 400,
                "Invalid duration '61m': must be between 1s and 1h");
        // The duration in the query string, on a JSON POST and on a bare one.
        assertRefused(http.send("POST", PATH + "?duration=2h", client.accept, "application/json", "{}"), 400,
                "Invalid duration '2h': must be between 1s and 1h");
        assertRefused(http.send("POST", PATH + "?duration=soon", client.accept, null, null), 400,
                "Invalid duration 'soon': use e.g. 30s");
        assertThat(profiler.activeSession()).isEmpty();
    }

    /** A body Spring cannot read as the operation's JSON object gets Spring Boot's own 400, as any endpoint's. */
    @ParameterizedTest
    @EnumSource(Client.class)
    void malformedJsonIsSpringBootsOwn400AndStartsNothing(Client client) {
        for (String body : List.of("{duration: \"5s\"}", "{\"duration\":\n \"5s\"", "{\"duration\": {\"seconds\": 5}}",
                "[\"5s\"]")) {
            HttpResponse<String> r = postJson(client, body);
            assertThat(r.statusCode()).as("%s: %s", body, r.body()).isEqualTo(400);
        }
        assertThat(profiler.activeSession()).isEmpty();
    }

    @Test
    void aCrossSiteFormsPostIs415AndStartsNothing() {
        assertAFormsPostIs415(http);
        assertThat(profiler.activeSession()).isEmpty();
    }

    /**
     * What a form on another site can send without a CORS preflight ({@code text/plain}, form-encoded, multipart) is
     * no JSON: 415, and nothing starts.
     */
    static void assertAFormsPostIs415(Http http) {
        for (String type : List.of("text/plain", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=b")) {
            HttpResponse<String> r = http.send("POST", PATH + "?duration=5s",
                    CpuProfilerStatusPageHttpTest.BROWSER_ACCEPT, type, "{\"duration\": \"5s\"}");
            assertThat(r.statusCode()).as("%s: %s", type, r.body()).isEqualTo(415);
        }
    }

    @ParameterizedTest
    @EnumSource(Client.class)
    void barePostStartsAProfileOfTheDefaultDuration(Client client) {
        HttpResponse<String> r = http.send("POST", PATH, client.accept, null, null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
        RunningSession running = profiler.activeSession().orElseThrow();
        assertThat(running.duration()).isEqualTo(Duration.ofSeconds(45));
        JsonNode session = Http.parse(r.body());
        assertThat(session.path("id").asString()).isEqualTo(running.id());
        assertThat(session.path("trigger").asString()).isEqualTo("MANUAL");
        assertThat(session.path("duration").asString()).isEqualTo("PT45S");
    }

    @Test
    void barePostTakesTheDurationFromTheQueryString() {
        HttpResponse<String> r = http.send("POST", PATH + "?duration=7m", null, null, null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(profiler.activeSession().orElseThrow().duration()).isEqualTo(Duration.ofMinutes(7));
        assertThat(Http.parse(r.body()).path("duration").asString()).isEqualTo("PT7M");
    }

    @Test
    void jsonPostStillTakesTheDurationFromTheBody() {
        HttpResponse<String> r = postJson(Client.ANY, "{\"duration\": \"8m\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(profiler.activeSession().orElseThrow().duration()).isEqualTo(Duration.ofMinutes(8));
        assertThat(Http.parse(r.body()).path("duration").asString()).isEqualTo("PT8M");
    }

    @Test
    void curlPostWithoutBodyOrContentLengthStartsAProfile() {
        String raw = http.curlPost(PATH);
        assertThat(raw).startsWith("HTTP/1.1 200 ");
        assertThat(raw).containsIgnoringCase("Content-Type: application/json");
        RunningSession running = profiler.activeSession().orElseThrow();
        assertThat(raw).contains("\"id\":\"" + running.id() + "\"").contains("\"duration\":\"PT45S\"");
    }

    /** The 429 names the running session: it ends {@code duration - elapsed} after the answer, when to try again. */
    @ParameterizedTest
    @EnumSource(Client.class)
    void postWhileASessionRunsIs429WithTheRunningSession(Client client) {
        RunningSession running = profiler.startOnDemand(Duration.ofMinutes(10));
        Instant end = running.startedAt().plus(running.duration());
        for (int i = 0; i < 3; i++) {
            Instant before = Instant.now();
            HttpResponse<String> r = switch (i) {
                case 0 -> http.send("POST", PATH, client.accept, null, null);
                case 1 -> postJson(client, "{\"duration\": \"5s\"}");
                default -> http.send("POST", PATH + "?duration=5s", client.accept, "application/json", "");
            };
            Instant after = Instant.now();
            assertRefused(r, 429, "A profiling session is already running; try again when it ends");
            JsonNode body = Http.parse(r.body()).path("running");
            assertThat(body.path("id").asString()).isEqualTo(running.id());
            assertThat(body.path("trigger").asString()).isEqualTo("MANUAL");
            assertThat(body.path("duration").asString()).isEqualTo("PT10M");
            // What is left, as the server saw it between our two instants.
            Duration left = Duration.parse(body.path("duration").asString()).minus(Duration.parse(
                    body.path("elapsed").asString()));
            assertThat(left).isBetween(Duration.between(after, end), Duration.between(before, end));
        }
        assertThat(profiler.activeSession()).containsSame(running);
    }

    @Test
    void twentyConcurrentPostsStartOneSessionAndRefuseNineteen() throws Exception {
        int clients = 20;
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<HttpResponse<String>> answers = new ArrayList<>();
        try {
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                boolean bare = i % 2 == 0;
                futures.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    return bare ? http.send("POST", PATH, "*/*", null, null)
                            : http.send("POST", PATH, "application/json", "application/json", "{\"duration\":\"45s\"}");
                }));
            }
            assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            for (Future<HttpResponse<String>> f : futures) {
                answers.add(f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        List<HttpResponse<String>> started = answers.stream().filter(r -> r.statusCode() == 200).toList();
        List<HttpResponse<String>> refused = answers.stream().filter(r -> r.statusCode() == 429).toList();
        assertThat(started).hasSize(1);
        assertThat(refused).hasSize(19);
        String id = Http.parse(started.get(0).body()).path("id").asString();
        assertThat(profiler.activeSession().orElseThrow().id()).isEqualTo(id);
        for (HttpResponse<String> r : refused) {
            JsonNode body = Http.parse(r.body());
            assertThat(body.path("status").asInt()).isEqualTo(429);
            assertThat(body.path("running").path("id").asString()).isEqualTo(id);
        }
    }

    private HttpResponse<String> postJson(Client client, String body) {
        return http.send("POST", PATH, client.accept, "application/json", body);
    }

    /** A refusal: the status, and in JSON (whatever the client accepted) its reason phrase and what to change. */
    static void assertRefused(HttpResponse<String> r, int status, String reason) {
        assertThat(r.statusCode()).as("status of %s", r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("Content-Type")).as("content type of %s", r.body())
                .hasValue("application/json");
        JsonNode body = Http.parse(r.body());
        assertThat(body.path("status").asInt()).isEqualTo(status);
        assertThat(body.path("error").asString()).isEqualTo(HttpStatus.valueOf(status).getReasonPhrase());
        assertThat(body.path("message").asString()).contains(reason);
    }
}
