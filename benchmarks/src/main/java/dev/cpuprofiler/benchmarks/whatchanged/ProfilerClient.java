package dev.cpuprofiler.benchmarks.whatchanged;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The application's profiler as an operator reaches it: {@code /actuator/cpuprofiler} over HTTP, JSON in and out. */
final class ProfilerClient {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;

    /** @param base the application's root, e.g. {@code http://127.0.0.1:8080} */
    ProfilerClient(URI base) {
        this.base = base;
    }

    /** The status JSON ({@code GET /actuator/cpuprofiler}). */
    JsonNode status() throws IOException, InterruptedException {
        return ok(get("/actuator/cpuprofiler?format=json"), "the status");
    }

    /**
     * The status's {@code reference} once it is not null, waiting for it at most {@code timeout}.
     *
     * @throws IllegalStateException when the time runs out, saying what the status showed
     */
    JsonNode awaitReference(Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode status = status();
            JsonNode reference = status.get("reference");
            if (reference != null && !reference.isNull()) {
                return reference;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(reference == null
                        ? "the status has no 'reference' field after " + timeout + ": this build records no "
                                + "reference of normal (profiler.cpu.reference.*); status: " + brief(status)
                        : "no reference of normal after " + timeout + "; status: " + brief(status));
            }
            Thread.sleep(1000);
        }
    }

    /**
     * Starts an on-demand profile ({@code POST /actuator/cpuprofiler?duration=}) and returns its id; while another
     * session records (429) it tries again every second, for at most {@code patience}.
     */
    String start(Duration duration, Duration patience) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + patience.toNanos();
        while (true) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    base.resolve("/actuator/cpuprofiler?duration=" + duration.toSeconds() + "s"))
                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 429 || System.nanoTime() > deadline) {
                return ok(r, "POST /actuator/cpuprofiler").get("id").asString();
            }
            Thread.sleep(1000);
        }
    }

    /** Profile {@code id}'s JSON once it is recorded (404 until then), waiting for it at most {@code timeout}. */
    JsonNode awaitProfile(String id, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            HttpResponse<String> r = get("/actuator/cpuprofiler/" + id + "?format=json");
            if (r.statusCode() != 404 || System.nanoTime() > deadline) {
                return ok(r, "profile " + id);
            }
            Thread.sleep(500);
        }
    }

    /** The application's own count of requests and kernel CPU per endpoint ({@code GET /tally}). */
    JsonNode tally() throws IOException, InterruptedException {
        return ok(get("/tally"), "the tally");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode ok(HttpResponse<String> r, String what) {
        if (r.statusCode() != 200) {
            throw new IllegalStateException(what + " answered " + r.statusCode() + ": " + r.body());
        }
        return JSON.readTree(r.body());
    }

    /** The status without its bulky parts, for an error message. */
    private static String brief(JsonNode status) {
        StringBuilder s = new StringBuilder();
        for (String field : new String[] {"state", "cpu", "session", "reference"}) {
            if (status.has(field)) {
                s.append(field).append('=').append(status.get(field)).append(' ');
            }
        }
        return s.toString().trim();
    }
}
