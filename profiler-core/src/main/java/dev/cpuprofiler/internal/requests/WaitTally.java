package dev.cpuprofiler.internal.requests;

import dev.cpuprofiler.FrameKind;
import dev.cpuprofiler.Profile.Latency.WaitKind;
import dev.cpuprofiler.internal.engine.JfrWaitRecording;
import dev.cpuprofiler.internal.stack.Frame;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A LATENCY profile's waits joined with the requests their threads served ({@link RequestLog}): per endpoint, the
 * time its requests waited, by what they waited on (its kind and the first application frame of the waiting stack).
 * A wait counts only where it began and ended in the same request: one on a thread that served none then (an idle
 * pool thread waiting for work, a poller) counts for nothing.
 */
public final class WaitTally implements JfrWaitRecording.WaitSink {

    /** Packages whose frames are not the application's own: the JDK's and the usual frameworks' and libraries'. */
    private static final List<String> NOT_APPLICATION = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.",
            "kotlin.", "kotlinx.", "scala.", "org.springframework.", "org.apache.", "io.netty.", "reactor.",
            "com.zaxxer.", "org.hibernate.", "io.micrometer.", "ch.qos.", "org.slf4j.", "com.fasterxml.",
            "tools.jackson.", "org.eclipse.jetty.", "io.undertow.", "dev.cpuprofiler.", "jakarta.", "com.mysql.",
            "org.postgresql.", "oracle.", "org.h2.", "com.mongodb.", "io.lettuce.", "redis.clients.");
    /** The most stack frames a wait lists, from the waiting frame down. */
    static final int STACK_FRAMES = 32;

    private final RequestLog log;
    private final Map<String, Map<Key, Wait>> byEndpoint = new HashMap<>();
    private final Map<String, Long> totals = new HashMap<>();

    /** @param log the session's requests; null when none were reported (then nothing is joined) */
    public WaitTally(RequestLog log) {
        this.log = log;
    }

    private record Key(WaitKind kind, String frame) {
    }

    /**
     * Waits of one kind at one frame, for one endpoint.
     *
     * @param stack the first such wait's stack, the waiting frame first
     */
    public record Wait(WaitKind kind, String frame, long nanos, long count, List<String> stack) {
    }

    @Override
    public void accept(long threadId, long startEpochNanos, long durationNanos, WaitKind kind,
            List<Frame> framesRootFirst) {
        if (log == null) {
            return;
        }
        // Begun and ended in one request: an idle pool thread's wait for work begins just after one request and ends
        // just before the next.
        long request = log.requestIdAt(threadId, startEpochNanos);
        if (request == 0 || log.requestIdAt(threadId, startEpochNanos + durationNanos) != request) {
            return;
        }
        String endpoint = log.nameOf(request);
        Key key = new Key(kind, applicationFrame(framesRootFirst));
        byEndpoint.computeIfAbsent(endpoint, e -> new HashMap<>()).merge(key, new Wait(kind, key.frame(),
                durationNanos, 1, stack(framesRootFirst)), (a, b) -> new Wait(a.kind(), a.frame(),
                        a.nanos() + b.nanos(), a.count() + 1, a.stack()));
        totals.merge(endpoint, durationNanos, Long::sum);
    }

    /** The endpoint's requests' waits, the longest first; empty if none. */
    public List<Wait> waits(String endpoint) {
        List<Wait> waits = new ArrayList<>(byEndpoint.getOrDefault(endpoint, Map.of()).values());
        waits.sort(Comparator.comparingLong(Wait::nanos).reversed());
        return waits;
    }

    /** The time the endpoint's requests waited, in all, in nanoseconds. */
    public long waitedNanos(String endpoint) {
        return totals.getOrDefault(endpoint, 0L);
    }

    /**
     * The waiting stack's first frame that is the application's own, from the top: not the JDK's, a framework's or a
     * common library's; the top Java frame when every frame is theirs; null without Java frames.
     */
    static String applicationFrame(List<Frame> framesRootFirst) {
        String topJava = null;
        for (int i = framesRootFirst.size() - 1; i >= 0; i--) {
            Frame f = framesRootFirst.get(i);
            if (f.kind() != FrameKind.JAVA && f.kind() != FrameKind.INLINED) {
                continue;
            }
            if (topJava == null) {
                topJava = f.name();
            }
            if (NOT_APPLICATION.stream().noneMatch(f.name()::startsWith)) {
                return f.name();
            }
        }
        return topJava;
    }

    private static List<String> stack(List<Frame> framesRootFirst) {
        List<String> stack = new ArrayList<>();
        for (int i = framesRootFirst.size() - 1; i >= 0 && stack.size() < STACK_FRAMES; i--) {
            stack.add(framesRootFirst.get(i).name());
        }
        return stack;
    }
}
