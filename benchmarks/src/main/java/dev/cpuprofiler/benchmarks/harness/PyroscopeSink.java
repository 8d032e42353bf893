package dev.cpuprofiler.benchmarks.harness;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * A stand-in for a Pyroscope server on 127.0.0.1: answers 200 to every {@code POST /ingest?...} and keeps each
 * upload (arrival time, its {@code from}/{@code until} in epoch seconds, and the JFR inside the multipart body,
 * un-gzipped) for the spike part.
 */
final class PyroscopeSink implements AutoCloseable {

    /** One upload: when it arrived (epoch ms), the window it says it covers (epoch s), its JFR bytes. */
    record Upload(long arrivedAtMillis, long fromSeconds, long untilSeconds, byte[] jfr) {
    }

    private final HttpServer server;
    private final List<Upload> uploads = new ArrayList<>();
    private int failures;

    PyroscopeSink() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    synchronized List<Upload> uploads() {
        return new ArrayList<>(uploads);
    }

    synchronized int failures() {
        return failures;
    }

    private void handle(HttpExchange ex) throws IOException {
        long arrived = System.currentTimeMillis();
        try (ex) {
            byte[] body = ex.getRequestBody().readAllBytes();
            Map<String, String> q = query(ex.getRequestURI().getRawQuery());
            try {
                byte[] jfr = jfrPart(body, ex.getRequestHeaders().getFirst("Content-Type"));
                synchronized (this) {
                    uploads.add(new Upload(arrived, Long.parseLong(q.getOrDefault("from", "0")),
                            Long.parseLong(q.getOrDefault("until", "0")), jfr));
                }
            } catch (IOException | RuntimeException e) {
                synchronized (this) {
                    failures++;
                }
            }
            ex.sendResponseHeaders(200, -1);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw != null) {
            for (String kv : raw.split("&")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    q.put(kv.substring(0, eq), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return q;
    }

    /** The {@code jfr} part of a multipart/form-data body (or the whole body), un-gzipped when gzipped. */
    static byte[] jfrPart(byte[] body, String contentType) throws IOException {
        byte[] part = body;
        if (contentType != null && contentType.contains("boundary=")) {
            String boundary = "--" + contentType.substring(contentType.indexOf("boundary=") + 9).replace("\"", "").trim();
            byte[] b = boundary.getBytes(StandardCharsets.ISO_8859_1);
            String latin = new String(body, StandardCharsets.ISO_8859_1);
            int at = 0;
            part = null;
            while ((at = latin.indexOf(boundary, at)) >= 0) {
                int headersEnd = latin.indexOf("\r\n\r\n", at);
                int next = latin.indexOf(boundary, at + b.length);
                if (headersEnd < 0 || next < 0) {
                    break;
                }
                String headers = latin.substring(at, headersEnd);
                if (headers.contains("name=\"jfr\"")) {
                    int start = headersEnd + 4;
                    int end = next - 2; // the CRLF before the next boundary
                    part = java.util.Arrays.copyOfRange(body, start, end);
                    break;
                }
                at = next;
            }
            if (part == null) {
                throw new IOException("no jfr part in the upload");
            }
        }
        if (part.length > 2 && (part[0] & 0xff) == 0x1f && (part[1] & 0xff) == 0x8b) {
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(part))) {
                return in.readAllBytes();
            }
        }
        return part;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
