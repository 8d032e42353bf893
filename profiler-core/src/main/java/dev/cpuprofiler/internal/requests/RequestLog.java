package dev.cpuprofiler.internal.requests;

import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A session's request events, frozen, and the answer to what a sample needs: which request its thread served at its
 * time ({@link #requestAt}). Each thread's events become intervals in which it served one request (the outermost,
 * when scopes nest); an exit outside every scope the log saw open means the request began before the session: its
 * thread served it from the session's start until that exit.
 */
public final class RequestLog {

    /**
     * How far outside a request a sample of its thread still counts for it: an engine's timestamp and the JVM's clock
     * differ by up to about this much. Measured on JDK 17 (jfr-execution, async-profiler) with Spring MVC: of the
     * samples that fell just outside a request on its thread, most lay within 1 ms before its start.
     */
    static final long SLACK_NANOS = 1_000_000;

    /** A sample outside every request. */
    public static final String NO_REQUEST = "[no request]";
    /** A request still running when the session ended: its name comes only when it ends. */
    public static final String UNFINISHED = "[unfinished request]";

    private final int events;
    private final long dropped;
    private final long epochOffsetNanos;
    private final Map<Long, Intervals> byThread = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();
    private final Map<String, Long> ended = new HashMap<>();
    /**
     * Each traced request's ids as numbers: the trace's high and low bits, the span's, and their digits
     * ({@link RequestTimeline#SPAN}).
     */
    private final Map<Long, long[]> traces = new HashMap<>();
    private final Map<Long, String> lateNames;
    private final Map<Long, String[]> lateTraces;
    private final long tracesLeftOut;

    /**
     * @param lateNames the names of requests that end after the log was frozen, as they come
     * @param lateTraces those requests' trace and span ids, as they come
     * @param tracesLeftOut traced requests whose ids were not kept: not hex as tracers write them
     * @param counted whether only the requests that ended at or after {@code countFrom} are counted (else all)
     * @param countFrom the {@link System#nanoTime()} the session's engine recorded from
     */
    RequestLog(int n, int[] kinds, long[] threads, long[] requests, long[] times, String[] nameById, long dropped,
            long epochOffsetNanos, Map<Long, String> lateNames, Map<Long, String[]> lateTraces, long tracesLeftOut,
            boolean counted, long countFrom) {
        this.lateNames = lateNames;
        this.lateTraces = lateTraces;
        this.tracesLeftOut = tracesLeftOut;
        this.events = n;
        this.dropped = dropped;
        this.epochOffsetNanos = epochOffsetNanos;
        for (int i = 0; i < n; i++) {
            switch (kinds[i]) {
                case RequestTimeline.ENTER -> byThread.computeIfAbsent(threads[i], t -> new Intervals())
                        .enter(requests[i], times[i]);
                case RequestTimeline.EXIT -> byThread.computeIfAbsent(threads[i], t -> new Intervals())
                        .exit(requests[i], times[i]);
                case RequestTimeline.END -> {
                    String name = nameById[(int) threads[i]];
                    names.put(requests[i], name);
                    if (!counted || times[i] - countFrom >= 0) {
                        ended.merge(name, 1L, Long::sum);
                    }
                }
                case RequestTimeline.TRACE -> traces.put(requests[i], new long[] {threads[i], times[i], 0, -1});
                case RequestTimeline.SPAN -> {
                    long[] trace = traces.get(requests[i]);
                    if (trace != null) {
                        trace[2] = threads[i];
                        trace[3] = times[i];
                    }
                }
                default -> { }
            }
        }
        traces.values().removeIf(trace -> trace[3] < 0); // the log filled between a trace's two events
        byThread.values().forEach(Intervals::close);
    }

    /** Epoch nanoseconds minus {@link System#nanoTime()} now, the two read as close together as they can be. */
    static long epochOffsetNanos() {
        long best = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i < 5; i++) {
            long before = System.nanoTime();
            Instant now = Instant.now();
            long after = System.nanoTime();
            if (after - before < best) {
                best = after - before;
                offset = now.getEpochSecond() * 1_000_000_000L + now.getNano() - (before + (after - before) / 2);
            }
        }
        return offset;
    }

    /**
     * The name of the request the thread served at that moment: {@link #NO_REQUEST} outside every request,
     * {@link #UNFINISHED} for one that had not ended when the session did.
     *
     * @param threadId the sampled thread's {@code Thread.getId()}
     * @param epochNanos the sample's time
     */
    public String requestAt(long threadId, long epochNanos) {
        return nameOf(requestIdAt(threadId, epochNanos));
    }

    /** The id of the request the thread served at that moment, or 0 outside every request. */
    public long requestIdAt(long threadId, long epochNanos) {
        Intervals intervals = byThread.get(threadId);
        return intervals == null ? 0 : intervals.at(epochNanos - epochOffsetNanos);
    }

    /** A request's name: {@link #NO_REQUEST} for 0, {@link #UNFINISHED} for one whose name never came. */
    public String nameOf(long request) {
        if (request == 0) {
            return NO_REQUEST;
        }
        String name = names.get(request);
        return name != null ? name : lateNames.getOrDefault(request, UNFINISHED);
    }

    /** A traced request's trace and span ids (the span's null if it had none), or null. */
    public String[] traceOf(long request) {
        long[] trace = traces.get(request);
        if (trace == null) {
            return lateTraces.get(request);
        }
        int spanDigits = (int) (trace[3] & 0xff);
        return new String[] {RequestTimeline.HexId.text(trace[0], trace[1], (int) (trace[3] >>> 8)),
                spanDigits == 0 ? null : RequestTimeline.HexId.text(0, trace[2], spanDigits)};
    }

    /** Whether any request was traced, so far. */
    public boolean hasTraces() {
        return !traces.isEmpty() || !lateTraces.isEmpty();
    }

    /** Traced requests whose ids were not kept, not being lowercase hex (up to 32 digits, 16 for a span). */
    public long tracesLeftOut() {
        return tracesLeftOut;
    }

    /** A {@link System#nanoTime()} reading as the samples' clock tells it. */
    long epochNanos(long nanoTime) {
        return nanoTime + epochOffsetNanos;
    }

    /**
     * How many requests of that name ended while the session recorded (from when its engine did, if it said so), or
     * soon after for those it saw run.
     */
    public long requestsEnded(String name) {
        return ended.getOrDefault(name, 0L) + lateNames.values().stream().filter(name::equals).count();
    }

    /** Whether the log holds anything at all. */
    public boolean isEmpty() {
        return events == 0;
    }

    /** Events the log had no room for; attribution ends where they start. */
    public long dropped() {
        return dropped;
    }

    /** What the log holds, for a log line. */
    @Override
    public String toString() {
        return events + " events (" + dropped + " dropped) for " + names.size() + " requests ended, " + traces.size()
                + " of them traced";
    }

    /** One thread's intervals, in time order: {@code starts[i] <= t < ends[i]} served {@code requests[i]}. */
    private static final class Intervals {

        long[] starts = new long[8];
        long[] ends = new long[8];
        long[] requests = new long[8];
        int n;
        int depth;
        long open;
        long openedAt;

        void enter(long request, long t) {
            if (depth++ == 0) {
                open = request;
                openedAt = t;
            }
        }

        void exit(long request, long t) {
            if (depth == 0) {
                // Its outermost scope opened before the session: the thread served it all along, nested scopes too.
                n = 0;
                add(Long.MIN_VALUE, t, request);
            } else if (--depth == 0) {
                add(openedAt, t, open);
            }
        }

        void close() {
            if (depth > 0) {
                add(openedAt, Long.MAX_VALUE, open); // still serving it when the session ended
                depth = 0;
            }
        }

        private void add(long start, long end, long request) {
            if (n == starts.length) {
                starts = Arrays.copyOf(starts, n * 2);
                ends = Arrays.copyOf(ends, n * 2);
                requests = Arrays.copyOf(requests, n * 2);
            }
            starts[n] = start;
            ends[n] = end;
            requests[n] = request;
            n++;
        }

        long at(long t) {
            int i = Arrays.binarySearch(starts, 0, n, t);
            i = i >= 0 ? i : -i - 2; // the last interval starting at or before t
            if (i >= 0 && t < ends[i]) {
                return requests[i];
            }
            // Just outside: the nearer interval within the slack, if any.
            long afterEnd = i >= 0 ? t - ends[i] : Long.MAX_VALUE;
            long beforeStart = i + 1 < n ? starts[i + 1] - t : Long.MAX_VALUE;
            if (Math.min(afterEnd, beforeStart) > SLACK_NANOS) {
                return 0;
            }
            return afterEnd <= beforeStart ? requests[i] : requests[i + 1];
        }
    }
}
