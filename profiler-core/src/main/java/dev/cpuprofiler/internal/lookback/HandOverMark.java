package dev.cpuprofiler.internal.lookback;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Committed at a hand-over, so that the look-back's stream knows when JFR has delivered everything sampled before it.
 * A stream's flush callbacks do not say which flush they end: one fires when a flush's data arrives, before its events
 * are dispatched, and one at its end (seen on JDK 17 and 25: they come in pairs a few ms apart, the first still
 * without the last second's samples). The flush that carries this event was written after the hand-over, so it and
 * the flushes before it hold every sample taken before. Off unless a stream enables it, so that no other recording
 * (a user's, a session's) holds it.
 */
@Name(HandOverMark.NAME)
@Label("Look-back hand-over")
@Category("CPU Profiler")
@Description("The CPU profiler's look-back stopped sampling for a profiling session")
@Enabled(false)
@StackTrace(false)
final class HandOverMark extends Event {

    static final String NAME = "dev.cpuprofiler.LookbackHandOver";

    /** Which stream handed over: every stream sees every recording's events in JFR's shared repository. */
    @Label("Stream")
    long stream;
}
