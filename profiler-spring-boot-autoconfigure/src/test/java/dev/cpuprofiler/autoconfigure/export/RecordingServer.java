package dev.cpuprofiler.autoconfigure.export;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A local HTTP server on an ephemeral loopback port that records every request and answers with scripted statuses
 * (200 once the script is used up); it can hold requests until released, to stand for a slow target.
 */
final class RecordingServer implements AutoCloseable {

    record Request(String method, String path, String rawQuery, Headers headers, byte[] body) {

        Map<String, String> query() {
            Map<String, String> params = new LinkedHashMap<>();
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                params.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
            return params;
        }
    }

    record Answer(int status, String body, Map<String, String> headers) {
    }

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Deque<Answer> script = new ArrayDeque<>();
    private volatile CountDownLatch hold = new CountDownLatch(0);

    RecordingServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            requests.add(new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestURI().getRawQuery(), exchange.getRequestHeaders(), body));
            try {
                hold.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            Answer answer;
            synchronized (script) {
                answer = script.isEmpty() ? new Answer(200, "", Map.of()) : script.removeFirst();
            }
            answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] out = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(answer.status(), out.length == 0 ? -1 : out.length);
            try (OutputStream os = exchange.getResponseBody()) {
                os.write(out);
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next answers, in order. */
    RecordingServer answer(int status, String body, Map<String, String> headers) {
        synchronized (script) {
            script.addLast(new Answer(status, body, headers));
        }
        return this;
    }

    /** Holds every request until {@link #release()}. */
    void holdRequests() {
        hold = new CountDownLatch(1);
    }

    void release() {
        hold.countDown();
    }

    List<Request> requests() {
        return requests;
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
