package dev.cpuprofiler.autoconfigure.export;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exporter's HTTP client and the threads it runs on, closed with the exporter: a context that is closed (a test
 * suite's, a devtools restart's) leaves none of them behind. Without this the client's worker threads
 * ({@code HttpClient-N-Worker-M}), its selector thread ({@code HttpClient-N-SelectorManager}) and the connection it
 * keeps alive to the target outlived every closed context until the garbage collector reclaimed the client.
 *
 * <p>Its tasks run on a pool of daemon threads of its own ({@link #THREAD_NAME}), shut down on close. From Java 21 the
 * client itself is shut down too ({@code HttpClient.shutdownNow()}, called by reflection as this code targets Java
 * 17): its exchanges end, its connections close and its selector thread stops. Before Java 21 a client cannot be
 * closed: its selector thread and idle connection end once the client, unreachable with the closed context, is
 * garbage-collected (its selector notices within a few seconds).
 */
final class ExportHttpClient implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ExportHttpClient.class);

    static final String THREAD_NAME = "cpuprofiler-http";
    /** The longest close waits for the client to terminate (Java 21+): its exchanges are aborted, not awaited. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(1);

    private static final Method SHUTDOWN_NOW = method("shutdownNow");
    private static final Method AWAIT_TERMINATION = method("awaitTermination", Duration.class);

    private final HttpClient client;
    private final ExecutorService executor;
    private boolean closed;

    private ExportHttpClient(HttpClient client, ExecutorService executor) {
        this.client = client;
        this.executor = executor;
    }

    /** Never follows a redirect (the exporter reports a 3xx as a failure naming where it pointed). */
    static ExportHttpClient create(Duration connectTimeout) {
        ExecutorService executor = Executors.newCachedThreadPool(daemonThreads());
        try {
            return new ExportHttpClient(HttpClient.newBuilder()
                    .connectTimeout(connectTimeout)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .executor(executor)
                    .build(), executor);
        } catch (RuntimeException | Error e) {
            executor.shutdownNow();
            throw e;
        }
    }

    HttpClient client() {
        return client;
    }

    /** Shuts the client down (Java 21+) and stops its threads. Idempotent; waits at most {@link #CLOSE_WAIT}. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (SHUTDOWN_NOW != null) {
            try {
                SHUTDOWN_NOW.invoke(client);
                if (AWAIT_TERMINATION != null) {
                    AWAIT_TERMINATION.invoke(client, CLOSE_WAIT);
                }
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                } else {
                    log.debug("Could not shut the export HTTP client down: {}", e.getCause().toString());
                }
            } catch (IllegalAccessException | RuntimeException e) {
                log.debug("Could not shut the export HTTP client down: {}", e.toString());
            }
        }
        executor.shutdownNow();
    }

    /** A public method of HttpClient since Java 21, or null before. */
    private static Method method(String name, Class<?>... parameters) {
        try {
            return HttpClient.class.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(Objects.requireNonNull(task, "task"), THREAD_NAME + "-"
                    + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
