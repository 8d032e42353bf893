package dev.cpuprofiler;

/**
 * Where requests tell the profiler which thread serves which request, so that a profile can say which requests
 * burned its CPU ({@link Profile.Requests#endpoints()}). A request is whatever the caller counts as one: the starter
 * reports each root Micrometer observation (an HTTP request, a {@code @Scheduled} run), from every thread its scopes
 * open on.
 * <p>
 * Cheap when no profile records: each call then reads one volatile field and returns, allocating nothing, but
 * {@link #completed}, which counts the request's duration for the latency trigger. While one records, a call appends a
 * few numbers to a bounded log. A call never throws.
 */
public interface RequestActivity {

    /** Whether a profile records now: when not, every other call returns at once. */
    boolean isRecording();

    /** A new request's id while a profile records (never 0), else 0; the other calls ignore id 0. */
    long newRequest();

    /** The current thread starts serving the request (a scope opened); calls may nest, the outermost counts. */
    void enter(long request);

    /** The current thread stops serving the request (a scope closed). */
    void exit(long request);

    /**
     * The request is over; what it is called in the profile.
     *
     * @param name e.g. {@code GET /owners/{id}}: a method and a URI template, never a raw path
     */
    void ended(long request, String name);

    /**
     * The request is over; its name, and the trace it belongs to (a profile lists its hottest traces).
     *
     * @param traceId the trace's id, or null without tracing
     * @param spanId the request's span id, or null
     */
    void ended(long request, String name, String traceId, String spanId);

    /**
     * A request of this name is over, after {@code nanos}: called for every request, whether or not a profile
     * records, so that the latency trigger sees each endpoint's durations.
     *
     * @param name as in {@link #ended(long, String)}
     */
    void completed(String name, long nanos);
}
