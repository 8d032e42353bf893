package dev.cpuprofiler.realistic;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed-loop HTTP load from the test JVM over loopback: {@code clients} threads, each with one request in flight,
 * alternating the shop's Thymeleaf catalogue page and its JSON account statement over varying ids. Bounded by a
 * deadline and a request count, and stopped by {@link #close()}.
 */
final class LoadDriver implements AutoCloseable {

    private static final String[] TIERS = {"STANDARD", "SILVER", "GOLD", "PLATINUM"};

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final long deadlineNanos;
    private final long maxRequests;
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopped;
    private volatile String lastFailure;

    LoadDriver(int port, int clients, Duration maxDuration, long maxRequests) {
        this.base = "http://127.0.0.1:" + port;
        this.deadlineNanos = System.nanoTime() + maxDuration.toNanos();
        this.maxRequests = maxRequests;
        for (int c = 0; c < clients; c++) {
            int client = c;
            Thread t = new Thread(() -> loop(client), "load-" + c);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    private void loop(int client) {
        long i = client * 7919L;
        while (!stopped && System.nanoTime() < deadlineNanos && started.incrementAndGet() <= maxRequests) {
            i++;
            String path = (i & 1) == 0
                    ? "/catalogue/" + (1 + i % 40) + "?page=" + (i / 40 % 3) + "&tier=" + TIERS[(int) (i % 4)]
                    : "/api/customers/" + (1 + i * 31 % 300) + "/statement";
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(30)).header("X-Request-Id", "load-" + client + "-" + i).GET()
                        .build(), HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    ok.incrementAndGet();
                } else {
                    failed.incrementAndGet();
                    lastFailure = response.statusCode() + " " + path;
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                failed.incrementAndGet();
                lastFailure = e + " " + path;
                if (stopped) {
                    return;
                }
            }
        }
    }

    /** Successful requests so far. */
    long completed() {
        return ok.get();
    }

    long failed() {
        return failed.get();
    }

    String lastFailure() {
        return lastFailure;
    }

    /** Requests per second completed over the next {@code window}. */
    double throughputOver(Duration window) throws InterruptedException {
        long before = ok.get();
        long start = System.nanoTime();
        Thread.sleep(window.toMillis());
        return (ok.get() - before) * 1e9 / (System.nanoTime() - start);
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        for (Thread t : threads) {
            t.join(35_000);
            if (t.isAlive()) {
                t.interrupt();
            }
        }
    }
}
