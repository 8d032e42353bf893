package dev.cpuprofiler.internal.engine;

import java.util.ArrayList;
import java.util.List;

/** Turns a read summary into the notes a profile reader should see. */
final class SampleNotes {

    private SampleNotes() {
    }

    /** The notes of a JFR engine's recording: JFR keeps at most {@value JfrStackDepth#JFR_MAX} frames per stack. */
    static List<String> describe(JfrSampleReader.Summary summary, EngineSettings settings) {
        List<String> notes = new ArrayList<>();
        if (summary.cut() > 0) {
            int depth = settings.maxStackDepth();
            String limit = depth > JfrStackDepth.JFR_MAX
                    ? "JFR records at most " + JfrStackDepth.JFR_MAX + " frames per stack, whatever max-stack-depth ("
                            + depth + ") asks; the async-profiler engine keeps up to max-stack-depth"
                    : "max-stack-depth " + depth + ", or less when JFR's own stack depth (-XX:FlightRecorderOptions:"
                            + "stackdepth, default 64) is lower";
            notes.add(summary.cut() + " of " + summary.events() + " samples had deeper stacks than kept (" + limit
                    + "); their outer frames are cut and they start at [truncated]");
        }
        notes.addAll(common(summary));
        return notes;
    }

    /** The notes of async-profiler's recording: its depth is max-stack-depth, its stack walk at most 1 MB. */
    static List<String> describeAsyncProfiler(JfrSampleReader.Summary summary, EngineSettings settings) {
        List<String> notes = new ArrayList<>();
        if (summary.cut() > 0) {
            notes.add(summary.cut() + " of " + summary.events() + " samples had deeper stacks than kept (max-stack-depth "
                    + settings.maxStackDepth() + "); their outer frames are cut and they start at [truncated]");
        }
        if (summary.walkStopped() > 0) {
            notes.add(summary.walkStopped() + " of " + summary.events() + " samples: async-profiler's stack walk "
                    + "stopped before the thread's first frame (break_stack_range: it walks at most 1 MB of a thread's "
                    + "stack, whatever the depth; or a frame it could not unwind); their outer frames are missing and "
                    + "they start at [truncated]");
        }
        notes.addAll(common(summary));
        return notes;
    }

    private static List<String> common(JfrSampleReader.Summary summary) {
        List<String> notes = new ArrayList<>();
        if (summary.failed() > 0) {
            notes.add(summary.failed() + " samples failed to walk the stack (counted as lost)");
        }
        if (summary.lost() > 0) {
            notes.add(summary.lost() + " samples were lost by the sampler (counted as lost)");
        }
        if (summary.biased() > 0) {
            notes.add(summary.biased() + " samples are safepoint-biased (attributed to a nearby safepoint)");
        }
        return notes;
    }
}
