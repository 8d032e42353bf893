package dev.cpuprofiler;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One recorded profile: how it was recorded, the merged stack tree, where the CPU went, which requests the samples
 * served, and what changed from normal.
 *
 * @param id unique, URL-safe
 * @param trigger what started it: the CPU, a pinned thread, a request (MANUAL) or the reference of normal
 * @param recording how it was recorded: by which engine, when, at which period, with how many samples
 * @param tree the merged stacks; with {@code profiler.cpu.group-by-thread}, each under its thread's group (a
 *        first-level node of kind {@link FrameKind#THREAD} named by the folded thread name)
 * @param cpu where the CPU went while it recorded
 * @param requests the session's samples by the request their thread served; {@link Requests#NONE} when nothing
 *        reported requests
 * @param lookback what was sampled in the look-back window before the session started (CPU-triggered profiles with
 *        look-back on), or null; {@code tree} holds the session's samples only ({@code ProfileView} of the formats
 *        selects either or both)
 * @param saturation why a SATURATION profile was recorded, or null
 * @param comparison what changed from the reference of normal in force when it started (a REFERENCE profile recorded
 *        while the application was calm), or null: no reference then, the comparison off, or a reference itself
 * @param latency where each endpoint's request time went (a LATENCY profile), or each endpoint's normal durations (a
 *        reference of normal); null for the others
 */
public record Profile(String id, SessionTrigger trigger, Recording recording, StackTreeSnapshot tree, CpuUse cpu,
        Requests requests, LookbackSnapshot lookback, Saturation saturation, Comparison comparison, Latency latency) {

    public Profile {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(recording, "recording");
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(cpu, "cpu");
        Objects.requireNonNull(requests, "requests");
    }

    /** This profile with {@code comparison} as what changed from normal. */
    public Profile withComparison(Comparison comparison) {
        return new Profile(id, trigger, recording, tree, cpu, requests, lookback, saturation, comparison, latency);
    }

    /**
     * How a profile was recorded.
     *
     * @param engine the engine that recorded it (never {@link EngineChoice#AUTO})
     * @param engineDetail what the engine actually used (e.g. async-profiler's {@code perf_events} or {@code ctimer})
     * @param fallbacks engines tried before it, each with the reason it could not record
     * @param notes remarks from the engine and the session (lost samples, an early stop, what the tree and the
     *        endpoints left out, and the like)
     * @param startedAt when recording started
     * @param endedAt when it stopped
     * @param samplingPeriod the interval between stack samples
     * @param samples samples in the tree
     * @param lostSamples samples the engine dropped or failed to take
     * @param jfrFile the engine's JFR recording ({@code format=jfr}), if one was kept (in the work directory by the
     *        profile store, or in the output directory), else null
     */
    public record Recording(EngineChoice engine, String engineDetail, List<EngineFallback> fallbacks,
            List<String> notes, Instant startedAt, Instant endedAt, Duration samplingPeriod, long samples,
            long lostSamples, Path jfrFile) {

        public Recording {
            Objects.requireNonNull(engine, "engine");
            fallbacks = List.copyOf(fallbacks);
            notes = List.copyOf(notes);
        }

        /** How long it recorded. */
        public Duration duration() {
            return Duration.between(startedAt, endedAt);
        }

        /** This recording with its JFR recording at {@code file} (null: none kept). */
        public Recording withJfrFile(Path file) {
            return new Recording(engine, engineDetail, fallbacks, notes, startedAt, endedAt, samplingPeriod, samples,
                    lostSamples, file);
        }
    }

    /**
     * Where the CPU went while a profile recorded; each part null when it could not be measured.
     *
     * @param percent the process's (or cgroup's) average CPU% while it recorded, or null if unknown
     * @param concurrency how many threads ran at once while it recorded (utilization, bottleneck, per-thread CPU),
     *        or null when thread CPU time cannot be read
     * @param breakdown where the process's CPU time went while it recorded (application, GC, JIT, the profiler, the
     *        rest of the JVM), from the kernel's per-thread accounting, or null when it could not be measured
     */
    public record CpuUse(Double percent, ConcurrencyReport concurrency, CpuBreakdown breakdown) {

        /** Nothing measured. */
        public static final CpuUse UNKNOWN = new CpuUse(null, null, null);
    }

    /**
     * A profile's samples by the request their thread served ({@link RequestActivity}).
     *
     * @param endpoints the samples by endpoint, most first; empty when nothing reported requests (the notes say why)
     * @param endpointTree the samples, each stack under its endpoint's group: a first-level node of kind
     *        {@link FrameKind#ENDPOINT} named {@code GET /owners/{id}}; null without endpoints
     * @param hottestTraces the traced requests with the most samples, most first; empty without tracing
     * @param spanTree as {@code endpointTree}, each traced request's samples further down, under a node of kind
     *        {@link FrameKind#TRACE} named by its trace id and one of kind {@link FrameKind#SPAN} named by its span
     *        id: what pprof's {@code span_id} labels and OTLP's links come from; null without tracing
     */
    public record Requests(List<EndpointShare> endpoints, StackTreeSnapshot endpointTree,
            List<TraceShare> hottestTraces, StackTreeSnapshot spanTree) {

        /** No requests: nothing reported any, or the samples could not be joined with them. */
        public static final Requests NONE = new Requests(List.of(), null, List.of(), null);

        public Requests {
            endpoints = endpoints == null ? List.of() : List.copyOf(endpoints);
            hottestTraces = hottestTraces == null ? List.of() : List.copyOf(hottestTraces);
        }
    }

    /**
     * Why a SATURATION profile was recorded: one thread pinned at a core.
     *
     * @param thread the thread's name
     * @param percentOfCore its CPU averaged over the window when the trigger fired, in percent of one core
     * @param window the span that average covers
     * @param tree the samples of that thread alone (by its id) during the session
     */
    public record Saturation(String thread, double percentOfCore, Duration window, StackTreeSnapshot tree) {

        public Saturation {
            Objects.requireNonNull(thread, "thread");
            Objects.requireNonNull(window, "window");
            Objects.requireNonNull(tree, "tree");
        }
    }

    /**
     * The samples of one endpoint: the requests of one name ({@code GET /owners/{id}}), or {@code [no request]}.
     *
     * @param endpoint the request's name
     * @param samples its samples in the session
     * @param percent of the profile's samples
     * @param requests how many such requests ended while the session recorded; null for {@code [no request]}
     * @param cpuPerRequestMillis samples × the sampling period ÷ requests; null without requests
     */
    public record EndpointShare(String endpoint, long samples, double percent, Long requests,
            Double cpuPerRequestMillis) {
    }

    /**
     * One traced request's samples: which trace (and span) burned them, for a link to the tracing backend.
     *
     * @param cpuMillis samples × the sampling period
     */
    public record TraceShare(String traceId, String spanId, String endpoint, long samples, double cpuMillis) {
    }

    /**
     * An engine that {@code auto} tried and passed over.
     *
     * @param engineId the engine that could not record
     * @param reason why, in words
     */
    public record EngineFallback(String engineId, String reason) {

        public EngineFallback {
            Objects.requireNonNull(engineId, "engineId");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * What changed from normal: this profile against a reference (by default the REFERENCE profile in force when it
     * started). Rates and shares are per second of each profile, so a 10-s reference compares with a 30-s profile.
     *
     * @param reference the id of the profile compared with
     * @param endpoints each endpoint of this profile that served requests, as {@link Requests#endpoints()} orders them
     * @param methods the methods whose share of the samples (self time) grew the most, the largest growth first
     */
    public record Comparison(String reference, List<EndpointChange> endpoints, List<MethodChange> methods) {

        public Comparison {
            Objects.requireNonNull(reference, "reference");
            endpoints = List.copyOf(endpoints);
            methods = List.copyOf(methods);
        }

        /**
         * One endpoint's requests per second and CPU per request, in the reference and in this profile.
         *
         * @param requestsPerSecond requests that ended while each recorded, per second of each
         * @param cpuPerRequestMillis the endpoint's samples × the sampling period ÷ its requests
         */
        public record EndpointChange(String endpoint, Change requestsPerSecond, Change cpuPerRequestMillis,
                Verdict verdict) {

            public EndpointChange {
                Objects.requireNonNull(endpoint, "endpoint");
                Objects.requireNonNull(requestsPerSecond, "requestsPerSecond");
                Objects.requireNonNull(cpuPerRequestMillis, "cpuPerRequestMillis");
                Objects.requireNonNull(verdict, "verdict");
            }
        }

        /**
         * A figure in the reference and in this profile.
         *
         * @param reference the reference's, or null when the reference had none (a {@link Verdict#NEW} endpoint)
         * @param ratio profile ÷ reference, or null without a reference figure
         */
        public record Change(Double reference, double profile, Double ratio) {
        }

        /**
         * A method's self time, in percent of each profile's samples.
         *
         * @param delta {@code percent - referencePercent}, in points
         */
        public record MethodChange(String method, double referencePercent, double percent, double delta) {

            public MethodChange {
                Objects.requireNonNull(method, "method");
            }
        }

        /** What grew, beyond the noise of the two profiles' counts (docs/what-changed.md gives the bounds). */
        public enum Verdict {
            /** More requests a second, each costing about the same CPU. */
            TRAFFIC,
            /** Each request costs more CPU, at about the same rate. */
            COST,
            /** More requests, and each costs more. */
            BOTH,
            /** The reference had no such requests. */
            NEW,
            /** Neither the rate nor the cost per request grew beyond the noise (a fall is in the ratios). */
            UNCHANGED
        }
    }

    /**
     * Why requests got slow: per endpoint that ended requests while the profile recorded, how long they took, how much
     * of that was CPU and how much waiting, and on what.
     *
     * @param endpoints the slowest first (by their 95th percentile)
     */
    public record Latency(List<EndpointLatency> endpoints) {

        public Latency {
            endpoints = List.copyOf(endpoints);
        }

        /** The endpoint's figures, if it ended requests. */
        public java.util.Optional<EndpointLatency> endpoint(String name) {
            return endpoints.stream().filter(e -> e.endpoint().equals(name)).findFirst();
        }

        /**
         * One endpoint's requests.
         *
         * @param requests requests that ended while the profile recorded
         * @param slowRequests those slower than the latency trigger's cut ({@code threshold}, or {@code normal-factor}
         *        times the reference's 95th percentile when that is longer)
         * @param p50Millis the median duration, within 10%
         * @param p95Millis the 95th percentile, within 10%
         * @param meanMillis the mean duration, within 10%
         * @param referenceP95Millis the 95th percentile in the reference of normal, or null where it did not know the
         *        endpoint
         * @param cpuMillisPerRequest its samples × the sampling period ÷ its requests, or null where its samples could
         *        not be joined with requests
         * @param waitMillisPerRequest the recorded waits of its requests ÷ its requests (waits shorter than
         *        {@code wait-threshold} are not recorded)
         * @param verdict where the time went, as against normal
         * @param waits what its requests waited on, the longest first
         */
        public record EndpointLatency(String endpoint, long requests, long slowRequests, double p50Millis,
                double p95Millis, double meanMillis, Double referenceP95Millis, Double cpuMillisPerRequest,
                double waitMillisPerRequest, Verdict verdict, List<Wait> waits) {

            public EndpointLatency {
                Objects.requireNonNull(endpoint, "endpoint");
                Objects.requireNonNull(verdict, "verdict");
                waits = List.copyOf(waits);
            }
        }

        /**
         * What an endpoint's requests waited on, at one place.
         *
         * @param frame the first application frame of the waiting stack (not the JDK's or a framework's)
         * @param millisPerRequest the waits' time ÷ the endpoint's requests
         * @param stack the first such wait's stack, the waiting frame first
         */
        public record Wait(WaitKind kind, String frame, double millisPerRequest, List<String> stack) {

            public Wait {
                Objects.requireNonNull(kind, "kind");
                stack = List.copyOf(stack);
            }
        }

        /** What a thread waited on. */
        public enum WaitKind {
            /** A monitor or a lock: {@code synchronized}, {@code ReentrantLock}, a read-write lock. */
            LOCK,
            /** A socket or a file. */
            IO,
            /** {@code Thread.sleep}. */
            SLEEP,
            /** A pool or a queue: a connection pool's borrow, a blocking queue, a semaphore. */
            POOL,
            /** Anything else: a future, a latch, {@code Object.wait} on a condition. */
            OTHER
        }

        /** Where an endpoint's request time went. */
        public enum Verdict {
            /** Its requests are slow, and mostly by the CPU they burn (more of it than normal, where that is known). */
            CPU,
            /** Its requests are slow, and mostly by waiting: on what, its waits say. */
            WAIT,
            /** Its requests are slow by both. */
            BOTH,
            /** Its requests are not slow by the latency trigger's rule. */
            UNCHANGED
        }
    }
}
