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
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A local HTTP server on an ephemeral loopback port that records every request and answers with scripted statuses
 * (200 once the script is used up); it can hold requests until released, to stand for a slow target, and stream a
 * long answer or stall in the middle of one, counting the answer's bytes it managed to write.
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

    /** @param length as {@code sendResponseHeaders} takes it: -1 no body, 0 chunked, else the body's length */
    record Answer(int status, Map<String, String> headers, long length, Body body) {
    }

    /** Writes an answer's body. */
    interface Body {
        void write(OutputStream out) throws IOException, InterruptedException;
    }

    private static final int CHUNK = 64 * 1024;

    private final HttpServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Deque<Answer> script = new ArrayDeque<>();
    private volatile CountDownLatch hold = new CountDownLatch(0);
    private final CountDownLatch closed = new CountDownLatch(1);
    private final AtomicLong written = new AtomicLong();
    private final AtomicInteger answered = new AtomicInteger();

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
                answer = script.isEmpty() ? text(200, "", Map.of()) : script.removeFirst();
            }
            answer.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            exchange.sendResponseHeaders(answer.status(), answer.length());
            try (OutputStream os = exchange.getResponseBody()) {
                answer.body().write(os);
            } catch (IOException e) {
                // The client hung up before the end of the answer: what it read is counted in written().
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                exchange.close();
                answered.incrementAndGet();
            }
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The next answers, in order. */
    RecordingServer answer(int status, String body, Map<String, String> headers) {
        return answer(text(status, body, headers));
    }

    /** An answer whose body is {@code size} bytes of 'x', streamed in chunks, unless the client hangs up first. */
    RecordingServer answerStreaming(int status, long size) {
        return answer(new Answer(status, Map.of(), size, out -> {
            byte[] chunk = new byte[CHUNK];
            Arrays.fill(chunk, (byte) 'x');
            for (long left = size; left > 0; left -= CHUNK) {
                int n = (int) Math.min(CHUNK, left);
                out.write(chunk, 0, n);
                written.addAndGet(n);
            }
        }));
    }

    /** An answer that sends its status, headers and a first chunk of body, then nothing until the server closes. */
    RecordingServer answerStalling(int status) {
        return answer(new Answer(status, Map.of(), 0, out -> {
            byte[] first = "the beginning of an answer that never ends".getBytes(StandardCharsets.UTF_8);
            out.write(first);
            out.flush();
            written.addAndGet(first.length);
            closed.await(30, TimeUnit.SECONDS);
        }));
    }

    private RecordingServer answer(Answer answer) {
        synchronized (script) {
            script.addLast(answer);
        }
        return this;
    }

    private static Answer text(int status, String body, Map<String, String> headers) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return new Answer(status, headers, bytes.length == 0 ? -1 : bytes.length, out -> out.write(bytes));
    }

    /** The bytes of answer bodies written to clients so far (what they were sent, not what they read). */
    long written() {
        return written.get();
    }

    /** Answers ended so far, whole or cut short by the client. */
    int answered() {
        return answered.get();
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
        closed.countDown();
        server.stop(0);
    }
}
