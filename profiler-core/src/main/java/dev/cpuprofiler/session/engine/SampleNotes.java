package dev.cpuprofiler.session.engine;

import java.util.ArrayList;
import java.util.List;

/** Turns a read summary into the notes a profile reader should see. */
final class SampleNotes {

    private SampleNotes() {
    }

    static List<String> describe(JfrSampleReader.Summary summary, EngineSettings settings) {
        List<String> notes = new ArrayList<>();
        if (summary.cut() > 0) {
            notes.add(summary.cut() + " of " + summary.events() + " samples had deeper stacks than kept (max depth "
                    + settings.maxStackDepth() + ", JFR's -XX:FlightRecorderOptions:stackdepth, default 64); "
                    + "their outer frames are cut and they start at [truncated]");
        }
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
