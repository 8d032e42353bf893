package dev.cpuprofiler.internal.session;

import dev.cpuprofiler.internal.engine.JfrWaitRecording;
import dev.cpuprofiler.internal.requests.EndpointTally;
import dev.cpuprofiler.internal.requests.RequestLog;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import dev.cpuprofiler.internal.requests.WaitTally;

/**
 * What requests reported while a session recorded, and the sink that joins the samples with it.
 *
 * @param maxEndpoints most endpoints the profile names
 * @param waits what the requests' threads wait on (a LATENCY session), or null
 */
record SessionRequests(RequestTimeline timeline, EndpointTally tally, int maxEndpoints,
        boolean engineSeesVirtualThreads, JfrWaitRecording waits) {

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

    /** Stops recording waits and joins them with the requests in {@code log}; null when it recorded none. */
    WaitTally stopWaits(RequestLog log) {
        if (waits == null) {
            return null;
        }
        WaitTally tally = new WaitTally(timeline.isReported() ? log : null);
        waits.stop(tally);
        return tally;
    }

    /** Once the samples are joined: the names of requests still running are no longer needed, nor the waits. */
    void close() {
        timeline.close();
        if (waits != null) {
            waits.cancel();
        }
    }
}
