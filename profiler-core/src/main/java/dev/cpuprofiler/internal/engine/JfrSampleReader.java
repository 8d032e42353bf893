package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.internal.stack.StackSink;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a finished {@code .jfr} file and hands its stack samples to a sink: the one parser behind all three engines
 * (async-profiler writes JFR too). Reading a closed file, rather than a live stream, is what makes delivery complete
 * and repeatable.
 */
final class JfrSampleReader {

    static final String CPU_TIME_SAMPLE = "jdk.CPUTimeSample";
    static final String CPU_TIME_SAMPLES_LOST = "jdk.CPUTimeSamplesLost";
    static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    static final String ACTIVE_SETTING = "jdk.ActiveSetting";

    /**
     * @param sampleEvents the events that are stack samples
     * @param nominalPeriod the configured period; a CPU-time sample covering twice that weighs 2
     * @param maxStackDepth frames kept per sample
     * @param nativeSymbolsOnly see {@link JfrStackConverter}
     * @param notBefore skip events older than this (a dump can hold chunks another recording started); may be null
     * @param settingsOfInterest {@code jdk.ActiveSetting} names to report (async-profiler's {@code engine})
     */
    record Options(Set<String> sampleEvents, Duration nominalPeriod, int maxStackDepth, boolean nativeSymbolsOnly,
            Instant notBefore, Set<String> settingsOfInterest) {
    }

    /**
     * @param events sample events delivered
     * @param weight their summed weight (nominal samples)
     * @param failed sample events without a stack walk ({@code failed = true})
     * @param lost samples the JVM reported as lost ({@code jdk.CPUTimeSamplesLost})
     * @param cut samples whose stack was cut at the root end: deeper than kept
     * @param walkStopped samples whose stack async-profiler could not walk to the thread's first frame
     * @param biased samples JFR marked as safepoint-biased
     * @param settings the requested active settings found
     * @param eventTypes every event type the file holds, of any time: what a download of it would hand out
     */
    record Summary(long events, long weight, long failed, long lost, long cut, long walkStopped, long biased,
            Map<String, String> settings, Set<String> eventTypes) {

        /**
         * What a profile's reader should know of a JFR engine's recording: JFR keeps at most
         * {@value JfrSetup#JFR_MAX} frames per stack.
         */
        List<String> notes(int maxStackDepth) {
            List<String> notes = new ArrayList<>();
            if (cut() > 0) {
                int depth = maxStackDepth;
                String limit = depth > JfrSetup.JFR_MAX
                        ? "JFR records at most " + JfrSetup.JFR_MAX + " frames per stack, whatever "
                                + "max-stack-depth (" + depth + ") asks; the async-profiler engine keeps up to "
                                + "max-stack-depth"
                        : "max-stack-depth " + depth + ", or less when JFR's own stack depth "
                                + "(-XX:FlightRecorderOptions:stackdepth, default 64) is lower";
                notes.add(cut() + " of " + events() + " samples had deeper stacks than kept (" + limit
                        + "); their outer frames are cut and they start at [truncated]");
            }
            notes.addAll(commonNotes());
            return notes;
        }

        /** What a profile's reader should know of async-profiler's recording: its depth, its 1-MB stack walk. */
        List<String> asyncProfilerNotes(int maxStackDepth) {
            List<String> notes = new ArrayList<>();
            if (cut() > 0) {
                notes.add(cut() + " of " + events() + " samples had deeper stacks than kept (max-stack-depth "
                        + maxStackDepth + "); their outer frames are cut and they start at [truncated]");
            }
            if (walkStopped() > 0) {
                notes.add(walkStopped() + " of " + events() + " samples: async-profiler's stack walk stopped "
                        + "before the thread's first frame (break_stack_range: it walks at most 1 MB of a thread's "
                        + "stack, whatever the depth; or a frame it could not unwind); their outer frames are missing "
                        + "and they start at [truncated]");
            }
            notes.addAll(commonNotes());
            return notes;
        }

        private List<String> commonNotes() {
            List<String> notes = new ArrayList<>();
            if (failed() > 0) {
                notes.add(failed() + " samples failed to walk the stack (counted as lost)");
            }
            if (lost() > 0) {
                notes.add(lost() + " samples were lost by the sampler (counted as lost)");
            }
            if (biased() > 0) {
                notes.add(biased() + " samples are safepoint-biased (attributed to a nearby safepoint)");
            }
            return notes;
        }
    }

    private final Options options;
    private final JfrStackConverter stacks;

    JfrSampleReader(Options options) {
        this.options = options;
        this.stacks = new JfrStackConverter(options.maxStackDepth(), options.nativeSymbolsOnly());
    }

    Summary read(Path file, StackSink sink) throws IOException {
        long events = 0, weight = 0, failed = 0, lost = 0, cut = 0, walkStopped = 0, biased = 0;
        Map<String, String> settings = new HashMap<>();
        Set<String> eventTypes = new HashSet<>();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                RecordedEvent event = recording.readEvent();
                String type = event.getEventType().getName();
                eventTypes.add(type);
                if (options.notBefore() != null && event.getStartTime().isBefore(options.notBefore())) {
                    continue;
                }
                if (options.sampleEvents().contains(type)) {
                    if (event.hasField("failed") && event.getBoolean("failed")) {
                        failed++;
                        continue;
                    }
                    if (event.hasField("biased") && event.getBoolean("biased")) {
                        biased++;
                    }
                    switch (stacks.cutReason(event.getStackTrace())) {
                        case DEPTH -> cut++;
                        case WALK_STOPPED -> walkStopped++;
                        case NONE -> { }
                    }
                    long w = weightOf(event);
                    RecordedThread thread = sampledThread(event);
                    Instant at = event.getStartTime();
                    sink.accept(stacks.rootFirst(event.getStackTrace()), threadName(thread),
                            thread == null ? -1 : thread.getJavaThreadId(),
                            at.getEpochSecond() * 1_000_000_000L + at.getNano(), w);
                    events++;
                    weight += w;
                } else if (CPU_TIME_SAMPLES_LOST.equals(type)) {
                    lost += event.getLong("lostSamples");
                } else if (ACTIVE_SETTING.equals(type) && event.hasField("name") && event.hasField("value")) {
                    String name = event.getString("name");
                    if (options.settingsOfInterest().contains(name)) {
                        settings.put(name, event.getString("value"));
                    }
                }
            }
        }
        return new Summary(events, weight, failed, lost, cut, walkStopped, biased, Map.copyOf(settings),
                Set.copyOf(eventTypes));
    }

    private long weightOf(RecordedEvent event) {
        if (!event.hasField("samplingPeriod")) {
            return 1;
        }
        // A CPU-time sample stands for the CPU time since the thread's previous sample, which can exceed the period.
        Duration period = event.getDuration("samplingPeriod");
        long nominal = options.nominalPeriod().toNanos();
        return Math.max(1, Math.round((double) period.toNanos() / nominal));
    }

    private static RecordedThread sampledThread(RecordedEvent event) {
        return event.hasField("sampledThread") ? event.getThread("sampledThread") : event.getThread();
    }

    private static String threadName(RecordedThread thread) {
        if (thread == null) {
            return null;
        }
        return thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
    }
}
