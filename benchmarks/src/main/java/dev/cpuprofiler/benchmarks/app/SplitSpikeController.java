package dev.cpuprofiler.benchmarks.app;

import dev.cpuprofiler.fixtures.SplitWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A CPU spike of known split for the peers benchmark: {@code threads} copies of the fixtures' 60/30/10
 * {@link SplitWorkload} (each one worker thread splitting its CPU across {@code hotSixty}/{@code warmThirty}/
 * {@code coolTen}) for {@code seconds}. With more workers than CPUs the process sits at the whole machine, above the
 * starter's 80% trigger. The truth is each worker's own CPU clock around each method, warm-up included (a profiler
 * that runs all the time samples the warm-up too), summed over the workers: {@code GET /bench/split/truth}.
 */
@RestController
public class SplitSpikeController {

    private final List<SplitWorkload> running = new ArrayList<>();
    private volatile long startedAt;
    private volatile long endedAt;

    /** Starts the spike and answers at once with the moment it started (epoch ms, this JVM's clock). */
    @PostMapping("/bench/split")
    public synchronized Map<String, Object> start(@RequestParam(defaultValue = "3") int threads,
            @RequestParam(defaultValue = "30") double seconds) {
        stopAll();
        running.clear();
        startedAt = System.currentTimeMillis();
        endedAt = 0;
        List<SplitWorkload> mine = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            SplitWorkload w = new SplitWorkload(true);
            mine.add(w);
            Thread starter = new Thread(() -> {
                try {
                    w.start(); // returns once warmed up; the worker keeps running until close()
                } catch (InterruptedException | RuntimeException e) {
                    // stopped early
                }
            }, "bench-split-start-" + i);
            starter.setDaemon(true);
            starter.start();
        }
        running.addAll(mine);
        Thread timer = new Thread(() -> {
            try {
                Thread.sleep((long) (seconds * 1000));
            } catch (InterruptedException e) {
                return;
            }
            synchronized (this) {
                if (running.equals(mine)) {
                    stopAll();
                }
            }
        }, "bench-split-timer");
        timer.setDaemon(true);
        timer.start();
        return Map.of("startedAtEpochMillis", startedAt, "threads", threads, "seconds", seconds);
    }

    @PostMapping("/bench/split/stop")
    public synchronized Map<String, Object> stop() {
        stopAll();
        return truth();
    }

    /** CPU ns the workers spent in each method so far, and when the spike started and ended (0: still running). */
    @GetMapping("/bench/split/truth")
    public synchronized Map<String, Object> truth() {
        long hot = 0;
        long warm = 0;
        long cool = 0;
        for (SplitWorkload w : running) {
            SplitWorkload.CpuSplit s = w.snapshot();
            hot += s.hot();
            warm += s.warm();
            cool += s.cool();
        }
        return Map.of("hotNanos", hot, "warmNanos", warm, "coolNanos", cool, "startedAtEpochMillis", startedAt,
                "endedAtEpochMillis", endedAt);
    }

    private void stopAll() {
        if (endedAt == 0 && !running.isEmpty()) {
            endedAt = System.currentTimeMillis();
        }
        for (SplitWorkload w : running) {
            try {
                w.close(); // the worker stops; its counts stay readable
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
