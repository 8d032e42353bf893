package dev.cpuprofiler.sample.demo;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.SessionTrigger;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The demo's own load: once the app is ready, it waits a quiet period, then a few daemon client threads call the
 * app's {@code /work/*} endpoints over loopback HTTP (real requests through Tomcat, so the profile shows the web
 * path), one request at a time each, until a CPU-triggered profile is recorded or the busy period runs out.
 * It stops when the application shuts down, before the web server does.
 */
@Component
@ConditionalOnBooleanProperty("sample.demo.enabled")
public class DemoLoadGenerator {

    private static final Logger log = LoggerFactory.getLogger(DemoLoadGenerator.class);

    private final DemoProperties properties;
    private final ProfilerUrls urls;
    private final ObjectProvider<CpuProfiler> cpuProfiler;

    private final CountDownLatch stop = new CountDownLatch(1);
    private final CountDownLatch profileRecorded = new CountDownLatch(1);
    private final AtomicReference<String> stopReason = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong[] requests = {new AtomicLong(), new AtomicLong(), new AtomicLong()};
    private final AtomicLong errors = new AtomicLong();
    private volatile boolean running;
    private volatile Instant busySince;

    public DemoLoadGenerator(DemoProperties properties, ProfilerUrls urls, ObjectProvider<CpuProfiler> cpuProfiler) {
        this.properties = properties;
        this.urls = urls;
        this.cpuProfiler = cpuProfiler;
    }

    @EventListener(ApplicationReadyEvent.class)
    public synchronized void start() {
        if (!threads.isEmpty()) {
            return;
        }
        CpuProfiler profiler = cpuProfiler.getIfAvailable();
        if (profiler != null) {
            profiler.addSessionEndListener((trigger, session, outcome) -> {
                // Only a profile of this load counts, not one that start-up work (JIT, caches) triggered.
                Instant since = busySince;
                if (trigger == SessionTrigger.CPU && !outcome.failed() && session != null && since != null
                        && !session.startedAt().isBefore(since)) {
                    profileRecorded.countDown();
                }
            });
        }
        Thread coordinator = new Thread(this::run, "demo-load");
        coordinator.setDaemon(true);
        threads.add(coordinator);
        coordinator.start();
    }

    /** Stops the load before the web server stops (the context publishes this event first). */
    @EventListener(ContextClosedEvent.class)
    public void shutdown() {
        stopReason.compareAndSet(null, "the application is shutting down");
        stop.countDown();
        List<Thread> toJoin;
        synchronized (this) {
            toJoin = new ArrayList<>(threads);
        }
        for (Thread t : toJoin) {
            t.interrupt();
        }
        for (Thread t : toJoin) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void run() {
        try {
            log.info("Demo load: quiet for {}, then {} client threads call {}/work/{primes,hash,sort} for up to {}{}.",
                    Durations.human(properties.getQuietPeriod()), properties.getClientThreads(), urls.app(),
                    Durations.human(properties.getMaxBusyPeriod()),
                    properties.isStopAfterProfile() ? " or until a CPU-triggered profile is recorded" : "");
            if (stop.await(properties.getQuietPeriod().toNanos(), TimeUnit.NANOSECONDS)) {
                return;
            }
            busy();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void busy() throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        List<URI> work = List.of(URI.create(urls.app() + "/work/primes?limit=" + properties.getPrimesLimit()),
                URI.create(urls.app() + "/work/hash?rounds=" + properties.getHashRounds()),
                URI.create(urls.app() + "/work/sort?size=" + properties.getSortSize()));
        busySince = Instant.now();
        running = true;
        CpuProfiler profiler = cpuProfiler.getIfAvailable();
        log.info("Demo load: busy now ({} client threads){}; watch the CPU average climb in the lines below.",
                properties.getClientThreads(), profiler == null ? ""
                        : ", CPU average so far " + percent(profiler.status().cpu().averagePercent()));
        synchronized (this) {
            for (int i = 0; i < properties.getClientThreads(); i++) {
                int first = i;
                Thread t = new Thread(() -> callLoop(client, work, first), "demo-load-client-" + (i + 1));
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }
        long deadline = System.nanoTime() + properties.getMaxBusyPeriod().toNanos();
        long[] last = new long[requests.length];
        long lastErrors = 0;
        while (true) {
            long wait = Math.min(properties.getProgressInterval().toNanos(), deadline - System.nanoTime());
            if (wait <= 0) {
                stopReason.compareAndSet(null, "the busy period of " + Durations.human(properties.getMaxBusyPeriod())
                        + " is over (sample.demo.max-busy-period)");
                break;
            }
            if (properties.isStopAfterProfile() ? profileRecorded.await(wait, TimeUnit.NANOSECONDS)
                    : stop.await(wait, TimeUnit.NANOSECONDS)) {
                stopReason.compareAndSet(null, "a CPU-triggered profile was recorded");
                break;
            }
            if (stop.getCount() == 0) {
                break;
            }
            lastErrors = logProgress(last, lastErrors);
        }
        running = false;
        if (stop.getCount() != 0) {
            log.info("Demo load stopped: {}. The CPU drops back now. Record an on-demand profile any time "
                    + "(also during the cooldown): curl -X POST {}  Make load yourself: curl '{}/work/primes?limit=20000000'",
                    stopReason.get(), urls.status(), urls.app());
        }
        stop.countDown();
    }

    /** When the busy phase began, if it has. */
    public Optional<Instant> busySince() {
        return Optional.ofNullable(busySince);
    }

    private long logProgress(long[] last, long lastErrors) {
        long[] now = new long[requests.length];
        long total = 0;
        for (int i = 0; i < requests.length; i++) {
            now[i] = requests[i].get();
            total += now[i] - last[i];
        }
        long errorCount = errors.get();
        CpuProfiler profiler = cpuProfiler.getIfAvailable();
        String cpu = "";
        if (profiler != null) {
            CpuProfilerStatus s = profiler.status();
            cpu = String.format("; CPU now %s, average %s (threshold %.0f%%); profiler %s",
                    percent(s.cpu().latestPercent()), percent(s.cpu().averagePercent()), s.cpu().thresholdPercent(),
                    s.state());
        }
        log.info("Demo load: {} requests in the last {} (primes {}, hash {}, sort {}{}){}", total,
                Durations.human(properties.getProgressInterval()), now[0] - last[0], now[1] - last[1],
                now[2] - last[2], errorCount > lastErrors ? ", " + (errorCount - lastErrors) + " failed" : "", cpu);
        System.arraycopy(now, 0, last, 0, now.length);
        return errorCount;
    }

    private static String percent(Double value) {
        return value == null ? "n/a" : String.format("%.0f%%", value);
    }

    private void callLoop(HttpClient client, List<URI> work, int first) {
        int i = first;
        while (running && stop.getCount() != 0) {
            int kind = i++ % work.size();
            try {
                HttpResponse<Void> response = client.send(HttpRequest.newBuilder(work.get(kind))
                        .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    requests[kind].incrementAndGet();
                } else {
                    failed(work.get(kind) + " answered " + response.statusCode());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException e) {
                if (!running || stop.getCount() == 0) {
                    return;
                }
                failed(work.get(kind) + " failed: " + e);
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void failed(String message) {
        if (errors.getAndIncrement() == 0) {
            log.warn("Demo load: {} (further failures are only counted)", message);
        }
    }
}
