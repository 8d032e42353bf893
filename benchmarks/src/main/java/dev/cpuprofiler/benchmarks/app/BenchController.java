package dev.cpuprofiler.benchmarks.app;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The endpoints the harness drives. */
@RestController
public class BenchController {

    private volatile long readyAtEpochMillis;
    private final AtomicLong burnGeneration = new AtomicLong();

    @EventListener(ApplicationReadyEvent.class)
    public void ready() {
        readyAtEpochMillis = System.currentTimeMillis();
    }

    /** The app's facts: when it became ready (when cpuprofiler's sampler starts), its pid, its JVM. */
    @GetMapping("/bench/info")
    public Map<String, Object> info() {
        return Map.of("readyAtEpochMillis", readyAtEpochMillis, "pid", ProcessHandle.current().pid(),
                "java", Runtime.version().toString(), "cpus", Runtime.getRuntime().availableProcessors(),
                "vmArgs", ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /**
     * The realistic request: a quote of {@code items} line items priced with BigDecimal, sorted, summed and
     * serialized to JSON (about 2 KB for 20 items).
     */
    @GetMapping("/api/quote")
    public Quote quote(@RequestParam(defaultValue = "20") int items) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        List<Line> lines = new ArrayList<>(items);
        BigDecimal subtotal = BigDecimal.ZERO;
        for (int i = 0; i < items; i++) {
            int qty = 1 + random.nextInt(9);
            BigDecimal unit = BigDecimal.valueOf(100 + random.nextInt(100_000), 2);
            BigDecimal total = unit.multiply(BigDecimal.valueOf(qty));
            String sku = "SKU-" + Integer.toHexString(random.nextInt()).toUpperCase();
            lines.add(new Line(sku, "Item " + sku.substring(4).toLowerCase() + " (" + (char) ('A' + i % 26) + ")",
                    qty, unit, total));
            subtotal = subtotal.add(total);
        }
        lines.sort(Comparator.comparing(Line::total).reversed().thenComparing(Line::sku));
        BigDecimal tax = subtotal.multiply(new BigDecimal("0.0825")).setScale(2, RoundingMode.HALF_EVEN);
        return new Quote("Q-" + random.nextLong(1L << 40), "customer-" + random.nextInt(10_000), Instant.now(), lines,
                subtotal, tax, subtotal.add(tax), List.of("web", items > 10 ? "large" : "small"));
    }

    public record Line(String sku, String name, int quantity, BigDecimal unitPrice, BigDecimal total) {
    }

    public record Quote(String id, String customer, Instant createdAt, List<Line> lines, BigDecimal subtotal,
            BigDecimal tax, BigDecimal total, List<String> tags) {
    }

    /**
     * The fixed CPU-bound workload: {@code threads} workers (default: as many as CPUs) run {@link CpuKernel} ops
     * for {@code seconds}; answers how many ops they completed per second.
     */
    @PostMapping("/bench/cpu")
    public Map<String, Object> cpu(@RequestParam(defaultValue = "0") int threads,
            @RequestParam(defaultValue = "5") double seconds) throws InterruptedException {
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        AtomicLong ops = new AtomicLong();
        long start = System.nanoTime();
        long end = start + (long) (seconds * 1e9);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            long seed = 0x9E3779B97F4A7C15L * (t + 1);
            Thread worker = new Thread(() -> {
                CpuKernel kernel = new CpuKernel(seed);
                long done = 0;
                long sink = 0;
                while (System.nanoTime() < end) {
                    for (int i = 0; i < 16; i++) {
                        sink += kernel.op();
                    }
                    done += 16;
                }
                ops.addAndGet(done + (sink == 42 ? 1 : 0));
            }, "bench-cpu-" + t);
            workers.add(worker);
            worker.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        return Map.of("ops", ops.get(), "seconds", elapsed, "opsPerSecond", ops.get() / elapsed, "threads", n);
    }

    /**
     * Sustained load for the detection benchmark: {@code threads} spinning threads for {@code seconds}. Answers
     * with the moment they started (epoch ms, this JVM's clock, the clock cpuprofiler's {@code startedAt} uses).
     */
    @PostMapping("/bench/burn")
    public Map<String, Object> burn(@RequestParam(defaultValue = "0") int threads,
            @RequestParam(defaultValue = "60") double seconds) {
        int n = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        long generation = burnGeneration.incrementAndGet();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long startedAt = System.currentTimeMillis();
        for (int t = 0; t < n; t++) {
            Thread burner = new Thread(() -> {
                CpuKernel kernel = new CpuKernel(generation);
                long sink = 0;
                while (System.nanoTime() < end && burnGeneration.get() == generation) {
                    sink += kernel.op();
                }
                if (sink == 42) {
                    System.out.print("");
                }
            }, "bench-burn-" + t);
            burner.setDaemon(true);
            burner.start();
        }
        return Map.of("startedAtEpochMillis", startedAt, "threads", n, "seconds", seconds);
    }

    /** Stops a running burn. */
    @PostMapping("/bench/burn/stop")
    public Map<String, Object> stopBurn() {
        burnGeneration.incrementAndGet();
        return Map.of("stopped", true);
    }
}
