package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.autoconfigure.CpuProfilerObservationHandler;
import dev.cpuprofiler.internal.requests.RequestLog;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import io.micrometer.observation.Observation;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * The heap CPU by endpoint keeps for a 30 s session at 2,000 requests a second (60,000 requests, each two scope
 * events and its end, on 200 threads): while the session records (the log), and after it (the log frozen into
 * per-thread intervals and names, which live until the samples are joined). Heap used after a full GC, before and
 * after; run as {@code java -cp ... dev.cpuprofiler.benchmarks.RequestLogMemory}.
 */
public final class RequestLogMemory {

    private RequestLogMemory() {
    }

    public static void main(String[] args) throws Exception {
        int requests = 60_000;
        int threads = 200;
        RequestTimeline timeline = new RequestTimeline(false, null);
        CpuProfilerObservationHandler handler = new CpuProfilerObservationHandler(timeline.reporter());
        long before = used();
        timeline.start();
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int first = t;
            workers[t] = new Thread(() -> {
                for (int i = first; i < requests; i += threads) {
                    Observation.Context r = RequestAttributionBenchmark.request((i & 1) == 0 ? "/owners/{id}"
                            : "/vets");
                    handler.onStart(r);
                    handler.onScopeOpened(r);
                    handler.onScopeClosed(r);
                    handler.onStop(r);
                }
            });
            workers[t].start();
        }
        for (Thread w : workers) {
            w.join();
        }
        long recording = used() - before;
        RequestLog log = timeline.stop();
        long frozen = used() - before;
        System.out.printf("requests %d on %d threads: log while recording %.2f MB (%.0f B/request); log and its "
                + "frozen intervals and names %.2f MB (%.0f B/request); dropped %d; %s%n", requests, threads,
                recording / 1e6, recording / (double) requests, frozen / 1e6, frozen / (double) requests,
                log.dropped(), log.requestAt(-1, 0));
        timeline.close();
    }

    private static long used() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
