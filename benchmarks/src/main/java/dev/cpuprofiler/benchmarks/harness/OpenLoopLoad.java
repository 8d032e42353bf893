package dev.cpuprofiler.benchmarks.harness;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An open-loop HTTP client: requests leave at fixed scheduled times ({@code rate} a second, evenly spaced), whether
 * or not earlier ones have answered, so a slower app gets the same offered load and its cost shows as CPU and
 * latency instead of as a lower request rate (a closed-loop client like wrk slows down with the app and hides it).
 * Counts requests sent, completed (2xx), failed (other status, error, 10-s timeout), started more than 10 ms late
 * (the client itself could not keep the schedule) and dropped (due while {@link #MAX_IN_FLIGHT} were in flight).
 */
final class OpenLoopLoad implements AutoCloseable {

    /** Counters at one moment. */
    record Counts(long sent, long completed, long errors, long late, long dropped, long nanos) {
        Counts minus(Counts o) {
            return new Counts(sent - o.sent, completed - o.completed, errors - o.errors, late - o.late,
                    dropped - o.dropped, nanos - o.nanos);
        }
    }

    private static final long LATE_NANOS = 10_000_000L;
    /**
     * At most this many requests in flight (each one a connection while it waits): a request due while all are
     * taken is dropped and counted, not queued, so the schedule holds and the harness's descriptors stay bounded.
     */
    static final int MAX_IN_FLIGHT = 256;

    private static final ExecutorService POOL = Executors.newFixedThreadPool(4, r -> {
        Thread t = new Thread(r, "open-loop-http");
        t.setDaemon(true);
        return t;
    });
    /** One client for every load: its connection pool is reused instead of left open by client after client. */
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .executor(POOL).connectTimeout(Duration.ofSeconds(5)).build();

    private final java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(MAX_IN_FLIGHT);
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong late = new AtomicLong();
    private final Thread scheduler;
    private volatile boolean running = true;

    private OpenLoopLoad(String url, double rate) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build();
        long period = (long) (1e9 / rate);
        scheduler = new Thread(() -> {
            long t0 = System.nanoTime();
            for (long i = 0; running; i++) {
                long due = t0 + i * period;
                long wait;
                while ((wait = due - System.nanoTime()) > 0 && running) {
                    LockSupport.parkNanos(wait);
                }
                if (!running) {
                    break;
                }
                if (-wait > LATE_NANOS) {
                    late.incrementAndGet();
                }
                if (!inFlight.tryAcquire()) {
                    dropped.incrementAndGet();
                    continue;
                }
                sent.incrementAndGet();
                CLIENT.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
                    inFlight.release();
                    if (e == null && r.statusCode() / 100 == 2) {
                        completed.incrementAndGet();
                    } else {
                        errors.incrementAndGet();
                    }
                });
            }
        }, "open-loop-scheduler");
        scheduler.setDaemon(true);
    }

    /** Starts sending {@code rate} GETs a second to {@code url}. */
    static OpenLoopLoad start(String url, double rate) {
        OpenLoopLoad load = new OpenLoopLoad(url, rate);
        load.scheduler.start();
        return load;
    }

    Counts counts() {
        return new Counts(sent.get(), completed.get(), errors.get(), late.get(), dropped.get(), System.nanoTime());
    }

    /** Stops sending and waits up to 10 s for the requests in flight. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        scheduler.join(5_000);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (completed.get() + errors.get() < sent.get() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}
