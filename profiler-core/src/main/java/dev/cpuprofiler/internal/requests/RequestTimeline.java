package dev.cpuprofiler.internal.requests;

import dev.cpuprofiler.RequestActivity;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The {@link RequestActivity} a session records: while one records, each thread's outermost scope opened or closed
 * and every request ended (with its trace's ids) is appended to a log of at most {@link #MAX_EVENTS} events (four
 * {@code long}s each, allocated in chunks as it fills); a scope nested in another on the same thread adds nothing, as
 * the request its thread serves is the outermost one's. Idle, each call reads one volatile field. {@link #start()}
 * and {@link #stop()} bracket a session's scopes; the names and traces of requests still running then are taken
 * until {@link #close()}, after the samples are joined.
 */
public final class RequestTimeline implements RequestActivity {

    /**
     * At most this many events per session: 16 MB. A request takes three (its thread's outermost scope opened and
     * closed, its end), five when traced: 2,000 requests a second fill it in about 87 s, 52 s traced.
     */
    public static final int MAX_EVENTS = 1 << 19;

    // An event is four longs: its kind, a first number, its request, a second number. ENTER and EXIT: the thread's
    // id, the time.
    static final int ENTER = 1;
    static final int EXIT = 2;
    /** The request's name's id; the time. */
    static final int END = 3;
    /** The trace id's higher 64 bits, its lower 64 bits ({@link HexId}). */
    static final int TRACE = 4;
    /** The span id; the two ids' lengths in hex digits, the trace's times 256 plus the span's. */
    static final int SPAN = 5;
    private static final int CHUNK_BITS = 12;
    private static final int CHUNK = 1 << CHUNK_BITS;

    /** {@code Thread.isVirtual()} on JDK 21+; null before, where no thread is virtual. */
    private static final MethodHandle IS_VIRTUAL = isVirtual();

    private final AtomicBoolean reported = new AtomicBoolean();
    private final int maxEvents;
    private final boolean virtualThreadsSaid;
    private volatile boolean virtualThreadsSeen;
    private volatile Log log;
    private final EndpointLatencies latencies;

    /**
     * @param virtualThreads whether the application said it serves requests on virtual threads
     * @param latencies where every request's duration is counted, or null to count none
     */
    public RequestTimeline(boolean virtualThreads, EndpointLatencies latencies) {
        this(MAX_EVENTS, virtualThreads, latencies);
    }

    /** A timeline whose log holds at most {@code maxEvents} events. */
    public RequestTimeline(int maxEvents, boolean virtualThreads, EndpointLatencies latencies) {
        this.maxEvents = maxEvents;
        this.virtualThreadsSaid = virtualThreads;
        this.latencies = latencies;
    }

    /** Every request's duration by endpoint, or null when none are counted. */
    public EndpointLatencies latencies() {
        return latencies;
    }

    /** Whether requests are served on virtual threads: the application said so, or a profile saw one. */
    public boolean virtualThreads() {
        return virtualThreadsSaid || virtualThreadsSeen;
    }

    /** Whether anything reports requests here: a profile without endpoints says why. */
    public boolean isReported() {
        return reported.get();
    }

    /** Says that something reports requests (the starter's observation handler, when it is built). */
    public RequestActivity reporter() {
        reported.set(true);
        return this;
    }

    /** Starts a session's log, forgetting any earlier one. */
    public void start() {
        log = new Log(maxEvents);
    }

    /**
     * The session's engine records from now on: requests that end from now count in the profile's request rates, which
     * are per second of the recording. Those that ended while the engine started (which can take a second, JFR's first
     * start or loading async-profiler) are only named, so a session's first seconds do not inflate its rates.
     */
    public void recording() {
        Log l = log;
        if (l != null) {
            l.countFrom = System.nanoTime();
            l.counting = true;
        }
    }

    /**
     * Ends the session's scopes, and its log but for the names of requests already known, which keep coming until
     * {@link #close()}; null if no log was started.
     */
    public RequestLog stop() {
        Log l = log;
        if (l == null) {
            return null;
        }
        l.closing = true;
        return l.freeze();
    }

    /** Ends the log altogether. */
    public void close() {
        log = null;
    }

    @Override
    public boolean isRecording() {
        return log != null;
    }

    @Override
    public long newRequest() {
        Log l = log;
        return l == null || l.closing ? 0 : l.ids.incrementAndGet();
    }

    @Override
    public void enter(long request) {
        Log l = log;
        if (l != null && request != 0) {
            Thread current = Thread.currentThread();
            if (!virtualThreadsSeen && isVirtual(current)) {
                virtualThreadsSeen = true;
            }
            if (l.depth.get()[0]++ == 0) {
                l.add(ENTER, threadId(current), request, System.nanoTime());
            }
        }
    }

    /** A scope that opened before the session (depth 0 here) closes too: its thread served that request until now. */
    @Override
    public void exit(long request) {
        Log l = log;
        if (l != null && request != 0) {
            int[] depth = l.depth.get();
            if (depth[0] == 0 || --depth[0] == 0) {
                l.add(EXIT, threadId(Thread.currentThread()), request, System.nanoTime());
            }
        }
    }

    @Override
    public void ended(long request, String name) {
        ended(request, name, null, null);
    }

    @Override
    public void ended(long request, String name, String traceId, String spanId) {
        Log l = log;
        if (l != null && request != 0 && name != null) {
            if (l.closing) {
                l.lateNames.put(request, name);
                if (traceId != null) {
                    l.lateTraces.put(request, new String[] {traceId, spanId});
                }
                return;
            }
            if (traceId != null) {
                l.addTrace(request, traceId, spanId);
            }
            l.add(END, l.nameId(name), request, System.nanoTime());
        }
    }

    @Override
    public void completed(String name, long nanos) {
        if (latencies != null) {
            latencies.record(name, nanos);
        }
    }

    @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; getId() is the same number
    private static long threadId(Thread thread) {
        return thread.getId();
    }

    private static boolean isVirtual(Thread thread) {
        try {
            return IS_VIRTUAL != null && (boolean) IS_VIRTUAL.invokeExact(thread);
        } catch (Throwable e) {
            return false;
        }
    }

    private static MethodHandle isVirtual() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    /** One session's events; writers append concurrently, {@link #freeze()} reads what was written. */
    private static final class Log {

        final AtomicLong ids = new AtomicLong();
        final AtomicInteger cursor = new AtomicInteger();
        final AtomicLong dropped = new AtomicLong();
        final ConcurrentHashMap<String, Integer> names = new ConcurrentHashMap<>();
        final AtomicInteger nextName = new AtomicInteger();
        final AtomicReferenceArray<AtomicLongArray> chunks;
        final int maxEvents;
        final long epochOffsetNanos = RequestLog.epochOffsetNanos();
        /** Requests that end after the log was frozen: at most those running when it was, so few. */
        final ConcurrentHashMap<Long, String> lateNames = new ConcurrentHashMap<>();
        final ConcurrentHashMap<Long, String[]> lateTraces = new ConcurrentHashMap<>();
        final AtomicLong tracesLeftOut = new AtomicLong();
        /** How deep in scopes the current thread is, in this session: only its outermost scope is logged. */
        final ThreadLocal<int[]> depth = ThreadLocal.withInitial(() -> new int[1]);
        volatile boolean closing;
        /** Requests that end at or after this {@link System#nanoTime()} are counted, once {@code counting}. */
        volatile long countFrom;
        volatile boolean counting;

        Log(int maxEvents) {
            this.maxEvents = maxEvents;
            this.chunks = new AtomicReferenceArray<>((maxEvents + CHUNK - 1) / CHUNK);
        }

        int nameId(String name) {
            Integer id = names.get(name);
            return id != null ? id : names.computeIfAbsent(name, n -> nextName.getAndIncrement());
        }

        /** The trace's and the span's ids, if they are hex as tracers write them (else counted, not kept). */
        void addTrace(long request, String traceId, String spanId) {
            if (!HexId.fits(traceId, HexId.MAX_DIGITS) || spanId != null && !HexId.fits(spanId, HexId.LONG_DIGITS)) {
                tracesLeftOut.incrementAndGet();
                return;
            }
            add(TRACE, HexId.high(traceId), request, HexId.low(traceId));
            add(SPAN, spanId == null ? 0 : HexId.low(spanId), request,
                    traceId.length() * 256L + (spanId == null ? 0 : spanId.length()));
        }

        void add(int kind, long thread, long request, long nanoTime) {
            if (closing) {
                return;
            }
            int i = cursor.getAndIncrement();
            if (i >= maxEvents) {
                cursor.set(maxEvents);
                dropped.incrementAndGet();
                return;
            }
            AtomicLongArray chunk = chunks.get(i >>> CHUNK_BITS);
            if (chunk == null) {
                chunks.compareAndSet(i >>> CHUNK_BITS, null, new AtomicLongArray(CHUNK * 4));
                chunk = chunks.get(i >>> CHUNK_BITS);
            }
            int at = (i & (CHUNK - 1)) * 4;
            chunk.lazySet(at + 1, thread);
            chunk.lazySet(at + 2, request);
            chunk.lazySet(at + 3, nanoTime);
            chunk.set(at, kind); // last: a slot whose kind is still 0 was not written when the log was frozen
        }

        RequestLog freeze() {
            int n = Math.min(cursor.get(), maxEvents);
            int[] kinds = new int[n];
            long[] threads = new long[n];
            long[] requests = new long[n];
            long[] times = new long[n];
            int kept = 0;
            for (int i = 0; i < n; i++) {
                AtomicLongArray chunk = chunks.get(i >>> CHUNK_BITS);
                int at = (i & (CHUNK - 1)) * 4;
                int kind = chunk == null ? 0 : (int) chunk.get(at);
                if (kind != 0) {
                    kinds[kept] = kind;
                    threads[kept] = chunk.get(at + 1);
                    requests[kept] = chunk.get(at + 2);
                    times[kept] = chunk.get(at + 3);
                    kept++;
                }
            }
            String[] byId = new String[nextName.get()];
            names.forEach((name, id) -> {
                if (id < byId.length) {
                    byId[id] = name;
                }
            });
            return new RequestLog(kept, kinds, threads, requests, times, byId, dropped.get(), epochOffsetNanos,
                    lateNames, lateTraces, tracesLeftOut.get(), counting, countFrom);
        }
    }

    /**
     * A trace's or a span's id as tracers write it, lowercase hex digits (W3C and B3: 32 or 16 for a trace, 16 for a
     * span), kept as numbers: up to 32 digits in two {@code long}s, and written back from them digit for digit, leading
     * zeros included, given how many there were.
     */
    static final class HexId {

        /** A trace id's most digits: 128 bits. */
        static final int MAX_DIGITS = 32;
        /** The digits one {@code long} holds: a span id's. */
        static final int LONG_DIGITS = 16;

        private HexId() {
        }

        /** Whether the text is 1 to {@code maxDigits} lowercase hex digits. */
        static boolean fits(String text, int maxDigits) {
            if (text == null || text.isEmpty() || text.length() > maxDigits) {
                return false;
            }
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                    return false;
                }
            }
            return true;
        }

        /** The number the digits before the last 16 write (0 if there are none). */
        static long high(String text) {
            return value(text, 0, Math.max(0, text.length() - LONG_DIGITS));
        }

        /** The number the last 16 digits write. */
        static long low(String text) {
            return value(text, Math.max(0, text.length() - LONG_DIGITS), text.length());
        }

        /** The id again, {@code digits} lowercase hex digits: the last 16 from {@code low}, any before from high. */
        static String text(long high, long low, int digits) {
            char[] text = new char[digits];
            for (int i = 0; i < digits; i++) {
                long word = i < LONG_DIGITS ? low : high;
                text[digits - 1 - i] = Character.forDigit((int) (word >>> 4 * (i % LONG_DIGITS)) & 0xf, 16);
            }
            return new String(text);
        }

        private static long value(String text, int from, int to) {
            long value = 0;
            for (int i = from; i < to; i++) {
                value = value << 4 | Character.digit(text.charAt(i), 16);
            }
            return value;
        }
    }
}
