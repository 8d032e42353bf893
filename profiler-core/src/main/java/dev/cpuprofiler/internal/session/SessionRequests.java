package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.internal.requests.EndpointTally;
import dev.cpuprofiler.internal.requests.RequestLog;
import dev.cpuprofiler.internal.requests.RequestTimeline;

/**
 * What requests reported while a session recorded, and the sink that joins the samples with it.
 *
 * @param maxEndpoints most endpoints the profile names
 */
record SessionRequests(RequestTimeline timeline, EndpointTally tally, int maxEndpoints,
        boolean engineSeesVirtualThreads) {

    /** Ends the request log; the samples the engine hands over from now on are joined with it. */
    RequestLog stop() {
        RequestLog log = timeline.stop();
        tally.join(timeline.isReported() && !blind() ? log : null);
        return log;
    }

    /** Requests run on virtual threads, and the engine's samples name their carriers. */
    boolean blind() {
        return timeline.virtualThreads() && !engineSeesVirtualThreads;
    }

    /** Once the samples are joined: the names of requests still running are no longer needed. */
    void close() {
        timeline.close();
    }
}
