package dev.cpuprofiler.autoconfigure.endpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Real HTTP against the test server. */
final class Http {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final String base;

    Http(int port) {
        this.base = "http://localhost:" + port;
    }

    /** A GET whose answer is a file (pprof, JFR). */
    HttpResponse<byte[]> bytes(String path) {
        try {
            return CLIENT.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).GET()
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    /** POSTs a JSON body, as actuator write operations expect ({@code {}} for no arguments). */
    HttpResponse<String> post(String path, String jsonBody) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(jsonBody)));
    }

    /**
     * Any request: {@code accept} and {@code contentType} null leave the header out, {@code body} null sends none
     * (a POST then carries {@code Content-Length: 0} and nothing else, as Java's client sends it).
     */
    HttpResponse<String> send(String method, String path, String accept, String contentType, String body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (accept != null) {
            request.header("Accept", accept);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        return send(request);
    }

    /** Any request with any headers (name, value, name, value…); {@code body} null sends none. */
    HttpResponse<String> request(String method, String path, String body, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return send(headers.length == 0 ? request : request.headers(headers));
    }

    /**
     * What {@code curl -X POST http://host/path} sends, byte for byte: no body, no Content-Type, no Content-Length
     * (Java's client always adds the length). Returns the raw response, status line first.
     */
    String curlPost(String path) {
        URI uri = URI.create(base + path);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(30_000);
            String request = "POST " + uri.getRawPath() + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                    + "\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\nConnection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode json(String path) {
        return JSON.readTree(get(path).body());
    }

    static JsonNode parse(String body) {
        return JSON.readTree(body);
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
