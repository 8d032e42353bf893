package dev.cpuprofiler.internal.requests;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.Profile.TraceShare;
import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.internal.stack.StackSink;
import dev.cpuprofiler.internal.stack.StackTree;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Passes a session's samples on to its tree and counts them by the request each one's thread served then, once the
 * session's {@link RequestLog} is known ({@link #join}): engines hand their samples over when the session stops. The
 * trees it keeps begin with the request's {@link FrameKind#ENDPOINT} group and, for a traced request, its
 * {@link FrameKind#TRACE} and {@link FrameKind#SPAN} below it.
 */
public final class EndpointTally implements StackSink {

    /** The endpoints beyond {@code max-endpoints}, folded into one. */
    public static final String OTHER = "[other endpoints]";

    private final StackSink tree;
    private final StackTree byEndpoint;
    private final int maxStackDepth;
    private final int maxTreeNodes;
    /** As {@link #byEndpoint}, each traced request's samples two levels further down, under its trace and span. */
    private StackTree bySpan;
    private final Map<String, Long> samples = new HashMap<>();
    private final Map<Long, Long> byRequest = new HashMap<>();
    private final Map<String, Frame> groupFrames = new HashMap<>();
    private final Map<Long, List<Frame>> spanFrames = new HashMap<>();
    private volatile RequestLog log;

    /**
     * @param tree where every sample goes
     * @param maxStackDepth, maxTreeNodes the bounds of the tree grouped by endpoint (its first frame, one more)
     */
    public EndpointTally(StackSink tree, int maxStackDepth, int maxTreeNodes) {
        this.tree = tree;
        this.byEndpoint = new StackTree(maxStackDepth + 1, maxTreeNodes, false);
        this.maxStackDepth = maxStackDepth;
        this.maxTreeNodes = maxTreeNodes;
    }

    /**
     * The log the samples delivered from now on are joined with (null: none, the samples count for no request). When
     * requests are traced, each traced request's stacks are also kept apart, for the span labels of
     * {@link #spanTree}.
     */
    public void join(RequestLog log) {
        if (log != null && log.hasTraces()) {
            bySpan = new StackTree(maxStackDepth + 3, maxTreeNodes, false);
        }
        this.log = log;
    }

    @Override
    public void accept(List<Frame> framesRootFirst, String threadName, long weight) {
        tree.accept(framesRootFirst, threadName, weight);
    }

    @Override
    public void accept(List<Frame> framesRootFirst, String threadName, long threadId, long epochNanos, long weight) {
        RequestLog l = log;
        if (l != null && threadId >= 0) {
            long request = l.requestIdAt(threadId, epochNanos);
            String endpoint = l.nameOf(request);
            samples.merge(endpoint, weight, Long::sum);
            if (request != 0) {
                byRequest.merge(request, weight, Long::sum);
            }
            List<Frame> grouped = new ArrayList<>(framesRootFirst.size() + 3);
            grouped.add(groupFrames.computeIfAbsent(endpoint, e -> new Frame(e, FrameKind.ENDPOINT)));
            grouped.addAll(framesRootFirst);
            byEndpoint.accept(grouped, threadName, weight);
            if (bySpan != null) {
                grouped.addAll(1, spanFrames.computeIfAbsent(request, r -> spanFrames(l, r)));
                bySpan.accept(grouped, threadName, weight);
            }
        }
        tree.accept(framesRootFirst, threadName, weight);
    }

    /**
     * The traces with the most samples, most first: each traced request's trace and span ids, its endpoint, its
     * samples and their CPU; empty when no request was traced.
     */
    public List<TraceShare> hottestTraces(Duration samplingPeriod, int limit) {
        RequestLog l = log;
        if (l == null) {
            return List.of();
        }
        return byRequest.entrySet().stream().filter(e -> l.traceOf(e.getKey()) != null)
                .sorted(Map.Entry.<Long, Long>comparingByValue().reversed()).limit(limit).map(e -> {
                    String[] ids = l.traceOf(e.getKey());
                    return new TraceShare(ids[0], ids[1], l.nameOf(e.getKey()), e.getValue(),
                            Math.round(e.getValue() * (samplingPeriod.toNanos() / 1e6) * 100) / 100.0);
                }).toList();
    }

    /**
     * As {@link #tree}, each traced request's samples under its {@link FrameKind#TRACE} and {@link FrameKind#SPAN}
     * below its endpoint; null without traced samples, or when keeping requests apart cut more samples than the
     * endpoint tree did ({@link #spansCut}).
     */
    public StackTreeSnapshot spanTree() {
        boolean traced = spanFrames.values().stream().anyMatch(frames -> !frames.isEmpty());
        return bySpan == null || !traced || spansCut() ? null : bySpan.snapshot();
    }

    /** Whether the requests kept apart outgrew {@code max-tree-nodes}, so that the spans' stacks were left out. */
    public boolean spansCut() {
        return bySpan != null && bySpan.samplesCutByLimits() > byEndpoint.samplesCutByLimits();
    }

    /** A request's trace and span groups, as the log knows them when its samples are joined; none if untraced. */
    private static List<Frame> spanFrames(RequestLog log, long request) {
        String[] ids = request == 0 ? null : log.traceOf(request);
        if (ids == null) {
            return List.of();
        }
        Frame trace = new Frame(ids[0], FrameKind.TRACE);
        return ids[1] == null ? List.of(trace) : List.of(trace, new Frame(ids[1], FrameKind.SPAN));
    }

    /** The samples joined with requests, each stack under its endpoint's group; null if none were. */
    public StackTreeSnapshot tree() {
        return log == null || samples.isEmpty() ? null : byEndpoint.snapshot();
    }

    /**
     * The endpoints by samples, most first: at most {@code maxEndpoints} names, the rest folded into {@link #OTHER}.
     *
     * @param total the profile's samples, of which each share is a percentage
     * @param samplingPeriod what one sample stands for, for the CPU per request
     */
    public List<EndpointShare> endpoints(long total, Duration samplingPeriod, int maxEndpoints) {
        RequestLog l = log;
        if (l == null || samples.isEmpty()) {
            return List.of();
        }
        List<Map.Entry<String, Long>> sorted = new ArrayList<>(samples.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        List<EndpointShare> shares = new ArrayList<>();
        long otherSamples = 0;
        long otherRequests = 0;
        for (Map.Entry<String, Long> e : sorted) {
            String name = e.getKey();
            boolean request = !name.equals(RequestLog.NO_REQUEST) && !name.equals(RequestLog.UNFINISHED);
            long requests = request ? l.requestsEnded(name) : 0;
            if (shares.size() < maxEndpoints) {
                shares.add(share(name, e.getValue(), request ? requests : null, total, samplingPeriod));
            } else {
                otherSamples += e.getValue();
                otherRequests += requests;
            }
        }
        if (otherSamples > 0) {
            shares.add(share(OTHER, otherSamples, otherRequests, total, samplingPeriod));
        }
        shares.sort(Comparator.comparingLong(EndpointShare::samples).reversed());
        return List.copyOf(shares);
    }

    private static EndpointShare share(String name, long samples, Long requests, long total, Duration period) {
        double percent = total == 0 ? 0 : Math.round(samples * 10000.0 / total) / 100.0;
        Double perRequest = requests == null || requests == 0 ? null
                : Math.round(samples * (period.toNanos() / 1e6) / requests * 100.0) / 100.0;
        return new EndpointShare(name, samples, percent, requests, perRequest);
    }
}
