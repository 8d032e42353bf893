package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.autoconfigure.CpuProfilerShutdown;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Pushes every stored profile to each {@link ExportTarget}, on a daemon thread of its own
 * ({@code cpuprofiler-export}): a session's thread only queues the profile ({@link ExportQueue}, never blocking), so
 * neither sessions, the endpoint nor the application wait for a target. Failed attempts are retried per
 * {@link ExportRetry}; each outcome goes to the status ({@link #last()}) and to the {@link ExportListener}s (the
 * meter). Started with the application context; on close it drains the queue for at most a couple of seconds, then
 * stops its thread, counting what is left as dropped, and closes its HTTP client ({@link ExportHttpClient}).
 */
public class ProfileExporter implements Consumer<Profile>, SmartLifecycle, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ProfileExporter.class);
    static final String THREAD_NAME = "cpuprofiler-export";
    private static final int MAX_MESSAGE = 300;

    private final CpuProfiler profiler;
    private final List<ExportTarget> targets;
    private final ExportHttpClient http;
    private final HttpClient client;
    private final ExportRetry retry;
    private final ExportQueue queue;
    private final Duration drainTimeout;
    private final ThreadFactory threadFactory;
    private final Clock clock;
    private final List<ExportListener> listeners = new CopyOnWriteArrayList<>();
    private final Object progress = new Object();
    private volatile ExportStatus last;
    private volatile boolean accepting;
    private volatile boolean busy;
    private Thread thread;
    private boolean stopped;

    /** @param http the client it sends with, which it closes with itself */
    ProfileExporter(CpuProfiler profiler, List<ExportTarget> targets, ExportHttpClient http, ExportRetry retry,
            int queueCapacity, Duration drainTimeout, ThreadFactory threadFactory, Clock clock) {
        this.profiler = Objects.requireNonNull(profiler, "profiler");
        this.targets = List.copyOf(targets);
        this.http = Objects.requireNonNull(http, "http");
        this.client = http.client();
        this.retry = Objects.requireNonNull(retry, "retry");
        this.queue = new ExportQueue(queueCapacity);
        this.drainTimeout = Objects.requireNonNull(drainTimeout, "drainTimeout");
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The targets' ids, e.g. {@code [pyroscope]}. */
    public List<String> targets() {
        return targets.stream().map(ExportTarget::id).toList();
    }

    /** The latest outcome of any target, or empty before the first. */
    public Optional<ExportStatus> last() {
        return Optional.ofNullable(last);
    }

    /** Profiles waiting in the queue. */
    public int queued() {
        return queue.size();
    }

    /** The targets, the queue and the latest outcome, as the endpoint's status shows them. */
    public ExportDescriptor descriptor() {
        return ExportDescriptor.of(targets(), queued(), last);
    }

    public void addListener(ExportListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Called on the session's thread that stored the profile: queues it and returns at once. */
    @Override
    public void accept(Profile profile) {
        if (!accepting) {
            dropped(profile, "the exporter is not running");
        } else if (!queue.offer(profile)) {
            dropped(profile, "the export queue is full");
        }
    }

    @Override
    public synchronized void start() {
        if (thread != null || stopped) {
            return;
        }
        thread = threadFactory.newThread(this::run);
        thread.setName(THREAD_NAME);
        thread.setDaemon(true);
        accepting = true;
        thread.start();
        profiler.addStoredProfileListener(this);
        log.info("Exporting CPU profiles to {}", targets());
        for (ExportTarget target : targets) {
            target.unencryptedCredentials().ifPresent(why -> log.warn("Exporting CPU profiles to {}: {}", target.id(),
                    why));
        }
    }

    /**
     * After {@link CpuProfilerShutdown}'s phase: the profile a session stopped by the shutdown keeps is queued before
     * the exporter stops taking profiles, and pushed within the drain time-out.
     */
    @Override
    public int getPhase() {
        return CpuProfilerShutdown.EXPORTER_PHASE;
    }

    @Override
    public boolean isRunning() {
        Thread t = thread;
        return t != null && t.isAlive() && accepting;
    }

    @Override
    public void stop() {
        close();
    }

    /**
     * Stops taking profiles, drains the queue for at most the drain time-out, then stops the thread and closes the HTTP
     * client (its threads and connections: {@link ExportHttpClient}), started or not.
     */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            if (stopped) {
                return;
            }
            stopped = true;
            accepting = false;
            t = thread;
        }
        profiler.removeStoredProfileListener(this);
        try {
            if (t != null) {
                drainAndStop(t);
            }
        } finally {
            http.close();
        }
        log.debug("Profile exporter stopped");
    }

    private void drainAndStop(Thread t) {
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        synchronized (progress) {
            while ((busy || !queue.isEmpty()) && t.isAlive()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    progress.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        // An attempt or a backoff still under way ends here: sleeping and HttpClient.send both answer interrupts.
        t.interrupt();
        try {
            t.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        try {
            while (accepting || !queue.isEmpty()) {
                Profile profile = queue.poll(Duration.ofMillis(200));
                if (profile == null) {
                    continue;
                }
                busy = true;
                try {
                    for (ExportTarget target : targets) {
                        deliver(profile, target);
                    }
                } finally {
                    busy = false;
                    synchronized (progress) {
                        progress.notifyAll();
                    }
                }
            }
        } catch (InterruptedException e) {
            // Closing: what is left is counted below.
        } catch (RuntimeException | Error e) {
            log.warn("The profile exporter stopped on an unexpected error", e);
        } finally {
            Profile left;
            while ((left = queue.pollNow()) != null) {
                dropped(left, "the application is shutting down");
            }
            synchronized (progress) {
                progress.notifyAll();
            }
        }
    }

    /** One profile to one target, with retries. Returns when it is delivered, refused, or given up. */
    void deliver(Profile profile, ExportTarget target) throws InterruptedException {
        HttpRequest request;
        try {
            request = target.request(profile);
        } catch (UnsendableProfileException e) {
            record(target, profile, ExportResult.FAILURE, null, e.getMessage());
            return;
        } catch (RuntimeException e) {
            record(target, profile, ExportResult.FAILURE, null, "cannot build the request: " + e);
            return;
        }
        for (int attempt = 0;; attempt++) {
            Integer status = null;
            String why;
            Optional<String> retryAfter = Optional.empty();
            try {
                HttpResponse<byte[]> response = send(request);
                status = response.statusCode();
                if (status >= 200 && status < 300) {
                    record(target, profile, ExportResult.SUCCESS, status, null);
                    return;
                }
                why = "HTTP " + status + (status >= 300 && status < 400 ? redirect(request, response)
                        : answer(response.body()));
                if (!ExportRetry.retryable(status)) {
                    record(target, profile, ExportResult.FAILURE, status, why);
                    return;
                }
                retryAfter = response.headers().firstValue("Retry-After");
            } catch (IOException e) {
                why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": "
                        + e.getMessage();
            }
            if (!retry.again(attempt)) {
                record(target, profile, ExportResult.FAILURE, status, why + " (gave up after " + (attempt + 1)
                        + " attempts)");
                return;
            }
            Duration wait = retry.delay(attempt, retryAfter, clock.instant());
            record(target, profile, ExportResult.RETRY, status, why + "; retrying in " + wait.toMillis() + " ms");
            try {
                Thread.sleep(wait.toMillis());
            } catch (InterruptedException e) {
                record(target, profile, ExportResult.FAILURE, status, why + " (not retried: shutting down)");
                throw e;
            }
        }
    }

    /**
     * One attempt: the answer's status, headers and at most {@link BoundedBody#LIMIT} bytes of its body, all within
     * the request's time-out (HttpClient's own stops at the status line), never following a redirect.
     */
    private HttpResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
        CompletableFuture<HttpResponse<byte[]>> answer = client.sendAsync(request, BoundedBody.handler());
        Optional<Duration> timeout = request.timeout();
        try {
            return timeout.isPresent() ? answer.get(timeout.get().toNanos(), TimeUnit.NANOSECONDS) : answer.get();
        } catch (TimeoutException e) {
            throw new HttpTimeoutException("timed out: no whole answer within " + timeout.get().toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException(cause);
        } finally {
            // Done: no effect. Timed out or interrupted (closing): aborts the exchange and closes its connection.
            answer.cancel(true);
        }
    }

    /**
     * Where a 3xx pointed, which is not followed: the credentials, the tenant and the profile go only to the
     * configured URL. Without the location's user, query and fragment, which may carry the other host's secrets.
     */
    private static String redirect(HttpRequest request, HttpResponse<?> response) {
        String to = response.headers().firstValue("Location").map(value -> {
            try {
                URI uri = request.uri().resolve(new URI(value.trim()));
                String shown = new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null)
                        .toString();
                return shown.length() > MAX_MESSAGE ? shown.substring(0, MAX_MESSAGE) + "..." : shown;
            } catch (URISyntaxException | IllegalArgumentException e) {
                return "an unreadable location";
            }
        }).orElse("no location");
        return ": a redirect to " + to + ", not followed (set the URL the target really answers at)";
    }

    private static String answer(byte[] body) {
        if (body == null || body.length == 0) {
            return "";
        }
        String text = new String(body, 0, Math.min(body.length, MAX_MESSAGE), StandardCharsets.UTF_8).strip();
        return text.isEmpty() ? "" : ": " + text;
    }

    private void dropped(Profile profile, String why) {
        for (ExportTarget target : targets) {
            record(target, profile, ExportResult.DROPPED, null, why);
        }
    }

    private void record(ExportTarget target, Profile profile, ExportResult result, Integer httpStatus,
            String message) {
        ExportStatus status = new ExportStatus(target.id(), profile.id(), result, clock.instant(), httpStatus,
                message);
        last = status;
        switch (result) {
            case SUCCESS -> log.debug("Exported profile {} to {}", profile.id(), target.id());
            case RETRY -> log.debug("Exporting profile {} to {}: {}", profile.id(), target.id(), message);
            case FAILURE -> log.warn("Profile {} not exported to {}: {}", profile.id(), target.id(), message);
            case DROPPED -> log.debug("Profile {} not exported to {}: {}", profile.id(), target.id(), message);
        }
        for (ExportListener listener : listeners) {
            try {
                listener.exported(status);
            } catch (RuntimeException e) {
                log.debug("An export listener failed: {}", e.toString());
            }
        }
    }
}
