package dev.cpuprofiler.benchmarks;

import dev.cpuprofiler.autoconfigure.CpuProfilerObservationHandler;
import dev.cpuprofiler.internal.requests.RequestLog;
import dev.cpuprofiler.internal.requests.EndpointLatencies;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.transport.RequestReplyReceiverContext;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * CPU by endpoint's cost per request, through the starter's real {@link CpuProfilerObservationHandler} and real
 * Micrometer server-request contexts: one request's callbacks (started, scope opened, scope closed, stopped) while no
 * profile records ({@code idle}: nothing may be allocated), and while one records ({@code recording}: a log of 30 s at
 * 2,000 requests a second, started afresh before each batch so that it never fills; each request two scope events and
 * its end). Run with {@code -prof gc} for the bytes per request.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RequestAttributionBenchmark {

    /** Requests per {@link #recording} batch: 30 s at 2,000 requests a second. */
    public static final int BATCH = 60_000;

    /** No profile records: the handler's idle path, with no request's duration counted. */
    @State(Scope.Thread)
    public static class Idle {

        final RequestTimeline timeline = new RequestTimeline(false, null);
        final CpuProfilerObservationHandler handler = new CpuProfilerObservationHandler(timeline.reporter());
        final Observation.Context request = request("/owners/{id}");
    }

    /**
     * No profile records, and each request's duration is counted for the latency trigger, as the default install
     * does ({@code profiler.latency.enabled=true}): its window, slot and endpoint limit are the defaults'.
     */
    @State(Scope.Thread)
    public static class IdleCounting {

        final RequestTimeline timeline = new RequestTimeline(false, new EndpointLatencies(Duration.ofSeconds(30),
                Duration.ofSeconds(30), Duration.ofSeconds(5), 100, System::nanoTime));
        final CpuProfilerObservationHandler handler = new CpuProfilerObservationHandler(timeline.reporter());
        final Observation.Context request = request("/owners/{id}");
    }

    /** A profile records: a fresh log and fresh contexts (each request brings its own) before each batch. */
    @State(Scope.Thread)
    public static class Recording {

        final RequestTimeline timeline = new RequestTimeline(false, null);
        final CpuProfilerObservationHandler handler = new CpuProfilerObservationHandler(timeline.reporter());
        final Observation.Context[] requests = new Observation.Context[BATCH];

        @Setup(Level.Invocation)
        public void startLog() {
            for (int i = 0; i < BATCH; i++) {
                requests[i] = request((i & 1) == 0 ? "/owners/{id}" : "/vets");
            }
            timeline.start();
        }

        @TearDown(Level.Invocation)
        public void stopLog() {
            RequestLog log = timeline.stop();
            timeline.close();
            if (log.dropped() > 0) {
                throw new IllegalStateException("the log filled: " + log.dropped() + " events dropped");
            }
        }
    }

    /** One request's callbacks while no profile records. */
    @Benchmark
    public void idle(Idle s) {
        oneRequest(s.handler, s.request);
    }

    /** One request's callbacks while no profile records, its duration counted by endpoint (the default install). */
    @Benchmark
    public void idleCountingLatency(IdleCounting s) {
        oneRequest(s.handler, s.request);
    }

    /** One request's callbacks while a profile records, averaged over a batch. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void recording(Recording s) {
        for (Observation.Context r : s.requests) {
            oneRequest(s.handler, r);
        }
    }

    /** What Micrometer calls on the handler for a request: its start, one scope opened and closed, its stop. */
    private static void oneRequest(CpuProfilerObservationHandler handler, Observation.Context request) {
        handler.onStart(request);
        handler.onScopeOpened(request);
        handler.onScopeClosed(request);
        handler.onStop(request);
    }

    static Observation.Context request(String uri) {
        Observation.Context c = new RequestReplyReceiverContext<Object, Object>((carrier, key) -> null);
        c.setName("http.server.requests");
        c.addLowCardinalityKeyValue(KeyValue.of("method", "GET"));
        c.addLowCardinalityKeyValue(KeyValue.of("uri", uri));
        return c;
    }
}
