package dev.cpuprofiler.benchmarks.whatchanged;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The truth the profiler's figures are checked against: per endpoint, the requests served and the CPU nanoseconds their
 * kernels burned, as {@link CpuBurner} measured it on the request's own thread (or its carrier).
 */
final class CpuTally {

    private final Map<String, LongAdder[]> byEndpoint = new LinkedHashMap<>();

    CpuTally(String... endpoints) {
        for (String e : endpoints) {
            byEndpoint.put(e, new LongAdder[] {new LongAdder(), new LongAdder()});
        }
    }

    void add(String endpoint, long cpuNanos) {
        LongAdder[] t = byEndpoint.get(endpoint);
        t[0].increment();
        t[1].add(cpuNanos);
    }

    /** {@code {endpoint: {requests, cpuNanos}}} so far. */
    Map<String, Map<String, Long>> snapshot() {
        Map<String, Map<String, Long>> out = new LinkedHashMap<>();
        byEndpoint.forEach((e, t) -> out.put(e, Map.of("requests", t[0].sum(), "cpuNanos", t[1].sum())));
        return out;
    }
}
