package dev.cpuprofiler.format;

import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.cpuprofiler.ConcurrencyReport;
import dev.cpuprofiler.CpuBreakdown;
import dev.cpuprofiler.LookbackSnapshot;
import dev.cpuprofiler.Profile;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.ThreadCpu;
import dev.cpuprofiler.internal.stack.HotMethods;
import dev.cpuprofiler.internal.stack.StackTree;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The profile as one JSON document: what recorded it, its figures (samples, cut stacks, hot methods, where the CPU
 * went, how many threads ran at once, the look-back part) and its merged tree. Times and durations are ISO-8601
 * strings, percentages are rounded to 0.01 and ratios to 0.0001; absent values are {@code null}. The tree is
 * streamed by {@link JsonTreeRenderer}, which allows nesting as deep as the deepest stack.
 */
final class JsonFormat extends FormatBase {

    /** Threads listed per profile (the busiest). */
    static final int MAX_PROFILE_THREADS = 20;

    private final ObjectMapper mapper = JsonMapper.builder().build();

    JsonFormat() {
        super("json", "application/json", ".json");
    }

    @Override
    public void write(Profile profile, ProfileView view, OutputStream out) throws IOException {
        try {
            mapper.writeValue(new NonClosing(out), document(profile, view));
        } catch (JacksonException e) {
            throw new IOException("Profile " + profile.id() + " could not be written as JSON: " + e.getMessage(), e);
        }
    }

    private static Document document(Profile p, ProfileView view) {
        StackTreeSnapshot full = view.fullTree(p);
        StackTreeSnapshot tree = view.tree(p);
        StackTree.RootCut cut = StackTree.RootCut.of(full);
        Profile.Recording r = p.recording();
        List<Profile.TraceShare> traces = p.requests().hottestTraces();
        return new Document(p.id(), p.trigger().name(), Saturation.of(p.saturation()), r.engine().id(),
                r.engineDetail(), r.fallbacks(), r.notes(),
                iso(r.startedAt()), iso(r.endedAt()), iso(r.duration()), iso(r.samplingPeriod()), r.samples(),
                r.lostSamples(), p.tree().truncatedSamples(), cut.samples(), cut.percent(), round(p.cpu().percent()),
                HotMethods.of(full, HotMethods.DEFAULT_LIMIT), p.requests().endpoints(), view.comparison(p),
                traces.isEmpty() ? null : traces, Breakdown.of(p.cpu().breakdown()),
                r.jfrFile() == null ? null : p.id() + JFR.extension(), Concurrency.of(p.cpu().concurrency()),
                Lookback.of(p.lookback()), Latency.of(p.latency()), view.lookback().id(), view.group(p).id(),
                view.thread(), view.minPercent() > 0 ? view.minPercent() : null,
                treeJson(tree));
    }

    /**
     * The document. {@code cutSamples} and {@code cutPercent} count samples whose stacks the engine cut at the root
     * (their callers unknown); {@code hotMethods} are the top methods by self time, from the whole tree even when
     * {@code tree} is folded; {@code endpoints} the samples by request
     * ({@code hottestTraces}, null without tracing, by trace); {@code group} how {@code tree} is grouped, and
     * {@code thread} whose stacks alone it holds (null: every thread's); {@code saturation} why a SATURATION profile
     * was recorded (null for others);
     * {@code jfrFile} is the name {@code format=jfr} downloads the recording as.
     */
    record Document(String id, String trigger, Saturation saturation, String engine, String engineDetail,
            List<Profile.EngineFallback> fallbacks, List<String> notes, String startedAt, String endedAt,
            String duration, String samplingPeriod, long samples, long lostSamples, long truncatedSamples,
            long cutSamples, double cutPercent, Double cpuPercent, List<HotMethods.Method> hotMethods,
            List<Profile.EndpointShare> endpoints, Profile.Comparison comparison,
            List<Profile.TraceShare> hottestTraces, Breakdown cpuBreakdown, String jfrFile, Concurrency concurrency,
            Lookback lookback, Latency latency, String lookbackView, String group, String thread,
            Double treeMinPercent,
            @JsonRawValue String tree) {
    }

    /** The pinned thread that triggered a SATURATION profile: its CPU averaged over the window, % of one core. */
    record Saturation(String thread, double percentOfCore, String window) {

        static Saturation of(Profile.Saturation s) {
            return s == null ? null : new Saturation(s.thread(), round(s.percentOfCore()), iso(s.window()));
        }
    }

    /**
     * Where the process's CPU time went while the profile recorded: application threads, GC, JIT, the profiler and
     * the rest of the JVM. {@code source} is {@code proc} (the kernel's per-thread accounting) or {@code jvm}.
     */
    record Breakdown(String processCpuTime, String source, List<Group> groups) {

        static Breakdown of(CpuBreakdown b) {
            return b == null ? null : new Breakdown(iso(b.processCpuTime()), b.source(), b.groups().stream()
                    .map(g -> new Group(g.group().id(), iso(g.cpuTime()), round(g.percent()))).toList());
        }
    }

    /** One group of threads' CPU time and its share (0..100) of the process's. */
    record Group(String group, String cpuTime, double percent) {
    }

    /** A thread's CPU: % of one core, and whether it is CPU-bound, mixed or mostly waiting. */
    record Thread(String name, long id, double cpuPercent, String cpuTime, String label) {

        static Thread of(ThreadCpu t) {
            return new Thread(t.name(), t.id(), round(t.cpuPercent()), iso(t.cpuTime()), t.label().name());
        }
    }

    /** How many threads ran at once while the profile recorded. */
    record Concurrency(double utilization, double bottleneck, double bottleneckLow, double bottleneckHigh,
            double averageRunning, double effectiveCpus, String tick, List<ConcurrencyReport.Bin> histogram,
            List<Thread> threads, int threadsSeen) {

        static Concurrency of(ConcurrencyReport r) {
            return r == null ? null : new Concurrency(ratio(r.utilization()), ratio(r.bottleneck()),
                    ratio(r.bottleneckLow()), ratio(r.bottleneckHigh()), ratio(r.averageRunning()), r.effectiveCpus(),
                    iso(r.tick()), r.histogram(), r.threads().stream().limit(MAX_PROFILE_THREADS).map(Thread::of)
                            .toList(), r.threadsSeen());
        }
    }

    /**
     * The look-back part: samples from before the session started, taken every {@code samplingPeriod}; in the tree
     * each weighs {@code samplingPeriod / weightUnit}, {@code weight} in all.
     */
    record Lookback(String startedAt, String endedAt, String duration, String samplingPeriod, String weightUnit,
            long samples, long weight, List<String> notes) {

        static Lookback of(LookbackSnapshot l) {
            return l == null ? null : new Lookback(iso(l.startedAt()), iso(l.endedAt()), iso(l.duration()),
                    iso(l.samplingPeriod()), iso(l.weightUnit()), l.samples(), l.weight(), l.notes());
        }
    }

    private static String treeJson(StackTreeSnapshot tree) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(256, tree.size() * 80));
        try {
            new JsonTreeRenderer().render(tree, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Why requests got slow ({@link Profile.Latency}), milliseconds to a tenth; null for a profile without it. */
    record Latency(List<Endpoint> endpoints) {

        static Latency of(Profile.Latency l) {
            return l == null ? null : new Latency(l.endpoints().stream().map(e -> new Endpoint(e.endpoint(),
                    e.requests(), e.slowRequests(), tenth(e.p50Millis()), tenth(e.p95Millis()), tenth(e.meanMillis()),
                    tenth(e.referenceP95Millis()), tenth(e.cpuMillisPerRequest()), tenth(e.waitMillisPerRequest()),
                    e.verdict().name(), e.waits().stream().map(w -> new Wait(w.kind().name(), w.frame(),
                            tenth(w.millisPerRequest()), w.stack())).toList())).toList());
        }
    }

    /** One endpoint's requests: see {@link Profile.Latency.EndpointLatency}. */
    record Endpoint(String endpoint, long requests, long slowRequests, double p50Millis, double p95Millis,
            double meanMillis, Double referenceP95Millis, Double cpuMillisPerRequest, double waitMillisPerRequest,
            String verdict, List<Wait> waits) {
    }

    /** What an endpoint's requests waited on: see {@link Profile.Latency.Wait}. */
    record Wait(String kind, String frame, double millisPerRequest, List<String> stack) {
    }

    private static double tenth(double millis) {
        return Math.round(millis * 10.0) / 10.0;
    }

    private static Double tenth(Double millis) {
        return millis == null ? null : tenth(millis.doubleValue());
    }

    private static double ratio(double r) {
        return Math.round(r * 10000.0) / 10000.0;
    }

    private static double round(double percent) {
        return Math.round(percent * 100.0) / 100.0;
    }

    private static Double round(Double percent) {
        return percent == null ? null : round(percent.doubleValue());
    }

    private static String iso(Instant i) {
        return i == null ? null : i.toString();
    }

    private static String iso(Duration d) {
        return d == null ? null : d.toString();
    }

    /** The mapper closes what it writes to; the caller owns {@code out}. */
    private static final class NonClosing extends java.io.FilterOutputStream {

        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
