package dev.cpuprofiler.internal.requests;

import dev.cpuprofiler.FrameKind;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cpuprofiler.internal.stack.Frame;
import dev.cpuprofiler.Profile.EndpointShare;
import dev.cpuprofiler.StackTreeSnapshot;
import dev.cpuprofiler.internal.stack.StackTree;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What the request log keeps and how a sample finds the request its thread served, with real threads and clocks. */
class RequestTimelineTest {

    @Test
    void idleItRecordsNothing() {
        RequestTimeline timeline = new RequestTimeline(false, null);
        assertThat(timeline.isRecording()).isFalse();
        assertThat(timeline.newRequest()).isZero();
        timeline.enter(7);
        timeline.exit(7);
        timeline.ended(7, "GET /a");
        assertThat(timeline.stop()).isNull();
        assertThat(timeline.isReported()).isFalse();
        assertThat(timeline.reporter()).isSameAs(timeline);
        assertThat(timeline.isReported()).isTrue();
    }

    /**
     * A session's rates are per second of its recording: a request that ends while the engine is still starting is
     * named (its samples, if any, are its own) but not counted.
     */
    @Test
    void requestsCountFromWhenTheEngineRecords() {
        RequestTimeline timeline = new RequestTimeline(false, null);
        timeline.start();
        long early = timeline.newRequest();
        timeline.enter(early);
        timeline.exit(early);
        long running = timeline.newRequest();
        timeline.enter(running);
        timeline.ended(early, "GET /a"); // while the engine starts
        timeline.recording();
        long later = timeline.newRequest();
        timeline.enter(later);
        timeline.exit(later);
        timeline.ended(later, "GET /a");
        timeline.exit(running);
        timeline.ended(running, "GET /a"); // began before, ended while recording: counted

        RequestLog log = timeline.stop();

        assertThat(log.requestsEnded("GET /a")).isEqualTo(2);
        assertThat(log.nameOf(early)).isEqualTo("GET /a");
    }

    @Test
    void aSampleIsNamedForTheRequestItsThreadServedThen() throws Exception {
        RequestTimeline timeline = new RequestTimeline(false, null);
        timeline.start();
        long threadId = Thread.currentThread().getId();
        long a = timeline.newRequest();
        long b = timeline.newRequest();
        long c = timeline.newRequest();
        long before = System.nanoTime();
        pause();
        timeline.enter(a);
        timeline.enter(a); // a nested scope of the same request
        long inA = System.nanoTime();
        timeline.exit(a);
        long stillA = System.nanoTime();
        timeline.exit(a);
        pause();
        long between = System.nanoTime();
        pause();
        timeline.enter(b);
        long inB = System.nanoTime();
        timeline.exit(b);
        pause();
        timeline.enter(c); // never ends while the session records
        long inC = System.nanoTime();
        timeline.ended(a, "GET /a");
        timeline.ended(b, "GET /b");

        AtomicLong otherThread = new AtomicLong();
        AtomicLong inOther = new AtomicLong();
        Thread other = new Thread(() -> {
            otherThread.set(Thread.currentThread().getId());
            timeline.exit(b); // b began on this thread before the session: only its exit is seen
            pause();
            inOther.set(System.nanoTime());
        });
        long beforeOther = System.nanoTime();
        pause();
        other.start();
        other.join();
        RequestLog log = timeline.stop();

        assertThat(log.requestAt(threadId, log.epochNanos(before))).isEqualTo(RequestLog.NO_REQUEST);
        assertThat(log.requestAt(threadId, log.epochNanos(inA))).isEqualTo("GET /a");
        assertThat(log.requestAt(threadId, log.epochNanos(stillA))).isEqualTo("GET /a");
        assertThat(log.requestAt(threadId, log.epochNanos(between))).isEqualTo(RequestLog.NO_REQUEST);
        assertThat(log.requestAt(threadId, log.epochNanos(inB))).isEqualTo("GET /b");
        assertThat(log.requestAt(threadId, log.epochNanos(inC))).isEqualTo(RequestLog.UNFINISHED);
        // Still running when the session stopped: its name comes while the samples are read, until close().
        assertThat(timeline.isRecording()).isTrue();
        assertThat(timeline.newRequest()).isZero();
        timeline.ended(c, "GET /c");
        assertThat(log.requestAt(threadId, log.epochNanos(inC))).isEqualTo("GET /c");
        assertThat(log.requestsEnded("GET /c")).isEqualTo(1);
        timeline.close();
        timeline.ended(a, "GET /late");
        assertThat(log.requestsEnded("GET /late")).isZero();
        assertThat(log.requestAt(otherThread.get(), log.epochNanos(beforeOther))).isEqualTo("GET /b");
        assertThat(log.requestAt(otherThread.get(), log.epochNanos(inOther.get()))).isEqualTo(RequestLog.NO_REQUEST);
        assertThat(log.requestAt(12345, log.epochNanos(inA))).isEqualTo(RequestLog.NO_REQUEST);
        // Within a millisecond of a request, a sample counts for it (the engines' clocks differ that much).
        assertThat(log.requestAt(threadId, log.epochNanos(inA) + 2 * RequestLog.SLACK_NANOS))
                .isEqualTo(RequestLog.NO_REQUEST);
        assertThat(log.requestsEnded("GET /a")).isEqualTo(1);
        assertThat(log.dropped()).isZero();
        assertThat(timeline.isRecording()).isFalse();
    }

    /** Longer than {@link RequestLog#SLACK_NANOS}: a moment outside every request. */
    private static void pause() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void aFullLogKeepsItsFirstEventsAndCountsTheRest() {
        RequestTimeline timeline = new RequestTimeline(10, false, null);
        timeline.start();
        long id = timeline.newRequest();
        for (int i = 0; i < 8; i++) {
            timeline.enter(id);
            timeline.exit(id);
        }
        RequestLog log = timeline.stop();
        assertThat(log.dropped()).isEqualTo(6);
        assertThat(log.isEmpty()).isFalse();
    }

    @Test
    void nestedScopesOfAThreadAddNoEventsSoTheLogKeepsEveryRequest() {
        // Room for ten requests of three events each: their outermost scope's opening and closing, and their end.
        RequestTimeline timeline = new RequestTimeline(30, false, null);
        timeline.start();
        for (int i = 0; i < 10; i++) {
            long id = timeline.newRequest();
            timeline.enter(id);
            for (int nested = 0; nested < 10; nested++) { // as Spring Security observes its filters, on this thread
                timeline.enter(id);
                timeline.exit(id);
            }
            timeline.exit(id);
            timeline.ended(id, "GET /a");
        }
        RequestLog log = timeline.stop();
        assertThat(log.dropped()).isZero();
        assertThat(log.requestsEnded("GET /a")).isEqualTo(10);
    }

    @Test
    void aRequestRunningWhenTheSessionStartedCoversItsThreadUntilItsRootScopeCloses() {
        RequestTimeline timeline = new RequestTimeline(false, null);
        timeline.start();
        long threadId = Thread.currentThread().getId();
        // Its root scope opened before the session; its first nested scope in the session gives it an id.
        long id = timeline.newRequest();
        long beforeNested = System.nanoTime();
        pause();
        timeline.enter(id);
        timeline.exit(id);
        pause();
        long afterNested = System.nanoTime();
        pause();
        timeline.exit(id); // the root scope closes
        timeline.ended(id, "GET /a");
        pause();
        long after = System.nanoTime();
        RequestLog log = timeline.stop();
        assertThat(log.requestAt(threadId, log.epochNanos(beforeNested))).isEqualTo("GET /a");
        assertThat(log.requestAt(threadId, log.epochNanos(afterNested))).isEqualTo("GET /a");
        assertThat(log.requestAt(threadId, log.epochNanos(after))).isEqualTo(RequestLog.NO_REQUEST);
    }

    @Test
    void tracesAreKeptAsTracersWroteThemForTheRequestsTheLogHolds() {
        String[][] ids = {
            {"4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"}, // OpenTelemetry, W3C
            {"0000000000000000463ac35c9f6413ad", "0000000000000001"}, // leading zeros kept
            {"463ac35c9f6413ad", "48485a3953bb6124"}, // Brave's 64-bit trace ids
            {"0af7651916cd43dd8448eb211c80319c", null}};
        RequestTimeline timeline = new RequestTimeline(false, null);
        timeline.start();
        long[] requests = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            requests[i] = timeline.newRequest();
            timeline.enter(requests[i]);
            timeline.exit(requests[i]);
            timeline.ended(requests[i], "GET /a", ids[i][0], ids[i][1]);
        }
        long running = timeline.newRequest();
        long notHex = timeline.newRequest();
        timeline.ended(notHex, "GET /b", "trace-7", "span-7");
        RequestLog log = timeline.stop();
        timeline.ended(running, "GET /c", "5bf92f3577b34da6a3ce929d0e0e4736", "10f067aa0ba902b7");
        for (int i = 0; i < ids.length; i++) {
            assertThat(log.traceOf(requests[i])).containsExactly(ids[i]);
        }
        assertThat(log.traceOf(running)).containsExactly("5bf92f3577b34da6a3ce929d0e0e4736", "10f067aa0ba902b7");
        assertThat(log.traceOf(notHex)).isNull();
        assertThat(log.tracesLeftOut()).isEqualTo(1);
        assertThat(log.requestsEnded("GET /b")).isEqualTo(1);
        timeline.close();
    }

    @Test
    void aFullLogKeepsNoMoreTraces() {
        RequestTimeline timeline = new RequestTimeline(50, false, null);
        timeline.start();
        long first = 0;
        long last = 0;
        for (int i = 0; i < 1000; i++) {
            long id = timeline.newRequest();
            timeline.enter(id);
            timeline.exit(id);
            timeline.ended(id, "GET /a", String.format("%032x", i + 1), String.format("%016x", i + 1));
            first = first == 0 ? id : first;
            last = id;
        }
        RequestLog log = timeline.stop();
        assertThat(log.traceOf(first)).containsExactly(String.format("%032x", 1), String.format("%016x", 1));
        assertThat(log.traceOf(last)).as("a trace beyond the log's room").isNull();
        assertThat(log.dropped()).isPositive();
        timeline.close();
    }

    @Test
    void withoutAReporterTheSamplesStillReachTheTreeAndNoEndpointIsNamed() {
        StackTree tree = new StackTree(64, 1000, false);
        EndpointTally tally = new EndpointTally(tree, 64, 1000);
        tally.join(null); // nothing reported requests: the session joins with no log
        tally.accept(List.of(Frame.java("app.Main.run")), "main", Thread.currentThread().getId(), 0, 3);
        assertThat(tree.totalSamples()).isEqualTo(3);
        assertThat(tally.tree()).isNull();
        assertThat(tally.spanTree()).isNull();
        assertThat(tally.spansCut()).isFalse();
        assertThat(tally.endpoints(3, Duration.ofMillis(10), 10)).isEmpty();
    }

    @Test
    void endpointsAreSortedFoldedAndPricedPerRequest() {
        RequestTimeline timeline = new RequestTimeline(false, null);
        timeline.start();
        long threadId = Thread.currentThread().getId();
        long[] inside = new long[4];
        String[] names = {"GET /a", "GET /b", "GET /c", "GET /d"};
        for (int i = 0; i < names.length; i++) {
            long id = timeline.newRequest();
            timeline.enter(id);
            inside[i] = System.nanoTime();
            timeline.exit(id);
            timeline.ended(id, names[i]);
        }
        pause();
        long outside = System.nanoTime();
        RequestLog log = timeline.stop();
        StackTree tree = new StackTree(64, 1000, false);
        EndpointTally tally = new EndpointTally(tree, 64, 1000);
        tally.join(log);
        int[] weights = {50, 30, 10, 5};
        for (int i = 0; i < names.length; i++) {
            tally.accept(List.of(Frame.java("app.Kernel.k" + i)), "worker", threadId, log.epochNanos(inside[i]),
                    weights[i]);
        }
        tally.accept(List.of(Frame.java("app.Idle.poll")), "worker", threadId, log.epochNanos(outside), 5);

        List<EndpointShare> shares = tally.endpoints(100, Duration.ofMillis(10), 2);
        assertThat(shares).extracting(EndpointShare::endpoint)
                .containsExactly("GET /a", "GET /b", EndpointTally.OTHER);
        assertThat(shares.get(0)).isEqualTo(new EndpointShare("GET /a", 50, 50.0, 1L, 500.0));
        assertThat(shares.get(2)).isEqualTo(new EndpointShare(EndpointTally.OTHER, 20, 20.0, 2L, 100.0));
        assertThat(tree.totalSamples()).isEqualTo(100);
        StackTreeSnapshot byEndpoint = tally.tree();
        Map<String, Long> firstLevel = new HashMap<>();
        for (int c = byEndpoint.firstChild(0); c > 0; c = byEndpoint.nextSibling(c)) {
            firstLevel.put(byEndpoint.frame(c), byEndpoint.total(c));
        }
        assertThat(firstLevel).containsEntry("GET /a", 50L).containsEntry("GET /d", 5L)
                .containsEntry(RequestLog.NO_REQUEST, 5L).hasSize(5);
        assertThat(byEndpoint.kind(byEndpoint.firstChild(0))).isEqualTo(FrameKind.ENDPOINT);
        assertThat(tally.endpoints(100, Duration.ofMillis(10), 10)).extracting(EndpointShare::endpoint)
                .containsExactly("GET /a", "GET /b", "GET /c", "GET /d", RequestLog.NO_REQUEST);
        assertThat(tally.endpoints(100, Duration.ofMillis(10), 10).get(4).requests()).isNull();
    }
}
