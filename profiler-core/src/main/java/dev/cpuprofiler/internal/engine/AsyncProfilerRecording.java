package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.internal.stack.StackSink;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A running async-profiler session writing JFR; stop parses the file and reads which engine it used. */
final class AsyncProfilerRecording extends OnceStoppedRecording {

    private static final Logger log = LoggerFactory.getLogger(AsyncProfilerRecording.class);
    private static final String ENGINE_SETTING = "engine";

    private final AsyncProfilerEngine.Access profiler;
    private final EngineSettings settings;
    private final StackSink sink;
    private final List<String> startNotes = new ArrayList<>();

    private long taken;

    AsyncProfilerRecording(AsyncProfilerEngine.Access profiler, Path file, EngineSettings settings, StackSink sink,
            String startOutput) {
        super(AsyncProfilerEngine.ID, "unknown", file);
        this.profiler = profiler;
        this.settings = settings;
        this.sink = sink;
        // Anything beyond "Profiling started" is a warning worth keeping (e.g. kernel symbols unavailable).
        startOutput.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("Profiling started"))
                .forEach(startNotes::add);
    }

    @Override
    long liveCount() {
        return profiler.samples();
    }

    /** async-profiler writes its recording as it goes: it must not take the work directory's last free space. */
    @Override
    public Optional<String> stopReason() {
        return settings.diskSpace().refusal(settings.workDirectory(),
                "the profiler's work directory, where async-profiler writes its recording");
    }

    @Override
    void halt() throws Exception {
        profiler.execute("stop"); // writes the .jfr file
        taken = profiler.samples();
    }

    @Override
    String haltFailure() {
        return "async-profiler could not stop";
    }

    @Override
    EngineRecording.Result readBack() throws IOException {
        JfrSampleReader reader = new JfrSampleReader(new JfrSampleReader.Options(
                Set.of(JfrSampleReader.EXECUTION_SAMPLE), settings.samplingPeriod(), settings.maxStackDepth(), true,
                null, Set.of(ENGINE_SETTING)));
        JfrSampleReader.Summary summary = reader.read(file(), sink);
        List<String> notes = new ArrayList<>(startNotes);
        String engine = summary.settings().get(ENGINE_SETTING);
        if (engine == null) {
            engine = "unknown";
            notes.add("async-profiler's recording does not say which engine it used");
        } else if (!engine.equals("perf_events")) {
            notes.add("async-profiler used " + engine + " (perf_events not permitted here, e.g. by "
                    + "kernel.perf_event_paranoid or seccomp): no kernel frames");
        }
        notes.addAll(summary.asyncProfilerNotes(settings.maxStackDepth()));
        long lost = Math.max(0, taken - summary.events());
        if (lost > 0) {
            notes.add(lost + " samples taken but not in the recording (counted as lost)");
        }
        return new EngineRecording.Result(AsyncProfilerEngine.ID, engine, summary.weight(), lost, file(), notes,
                List.of());
    }

    @Override
    String readFailure() {
        return "could not read async-profiler's recording " + file();
    }

    @Override
    void discard() {
        try {
            profiler.execute("stop");
        } catch (Exception e) {
            log.debug("async-profiler stop on cancel failed", e);
        }
    }
}
