package dev.cpuprofiler.benchmarks.harness;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Loopback HTTP calls to a child app, with timeouts. */
final class Http {

    static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1).build();

    record Response(int status, String body) {
        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    private Http() {
    }

    static Response get(String url, double timeoutSeconds) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis((long) (timeoutSeconds * 1000)))
                .GET().build();
        HttpResponse<String> r = CLIENT.send(req, HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body());
    }

    static Response post(String url, String jsonBody, double timeoutSeconds) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofMillis((long) (timeoutSeconds * 1000)));
        if (jsonBody != null) {
            b.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(jsonBody));
        } else {
            b.POST(HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body());
    }

    /** Polls until {@code url} answers 200 or the child dies or the time is up. */
    static boolean awaitUp(String url, Child child, double timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + (long) (timeoutSeconds * 1e9);
        while (System.nanoTime() < deadline && child.alive()) {
            try {
                if (get(url, 2).status() == 200) {
                    return true;
                }
            } catch (IOException e) {
                // not up yet
            }
            Thread.sleep(100);
        }
        return false;
    }

    static int freePort() throws IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
