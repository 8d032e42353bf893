package dev.cpuprofiler.internal.engine;

import dev.cpuprofiler.internal.stack.StackSink;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import jdk.jfr.EventSettings;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A plain JFR recording, dumped to a {@code .jfr} file in the work directory at stop and parsed then. Nothing reads it
 * while it records: a {@code RecordingStream} would parse every chunk as it is written, with or without event
 * handlers, a good part of the engine's overhead when it streamed (BENCHMARKS.md). {@link #samplesSoFar()} is counted
 * from a dump when someone asks (the status endpoint), at most once a second and at most 5% of the time, so the cost
 * of a live count is paid only while someone watches.
 */
final class JfrDumpRecording extends OnceStoppedRecording {

    private static final Logger log = LoggerFactory.getLogger(JfrDumpRecording.class);
    // JFR converts its ticks to wall time; allow for a little skew against Instant.now() when skipping old events.
    private static final Duration CLOCK_TOLERANCE = Duration.ofMillis(50);
    private static final Duration LIVE_COUNT_MAX_AGE = Duration.ofSeconds(1);

    private final Plan plan;
    private final EngineSettings settings;
    private final StackSink sink;
    private final Recording recording;
    private final Path liveFile;
    private final Instant startedAt;
    private final List<String> startNotes;

    private long liveCount;
    private long liveCountAt;
    private long liveCountCost;
    private boolean liveCountFailed;

    private JfrDumpRecording(Plan plan, EngineSettings settings, StackSink sink, Recording recording,
            Path file, Instant startedAt, List<String> startNotes) {
        super(plan.engineId(), plan.engineDetail(), file);
        this.plan = plan;
        this.settings = settings;
        this.sink = sink;
        this.recording = recording;
        this.liveFile = file.resolveSibling(file.getFileName() + ".live");
        this.startedAt = startedAt;
        this.startNotes = List.copyOf(startNotes);
    }

    /** Starts the recording; it is running when this returns. {@code jfrKeeper} is told first, past the disk check. */
    static JfrDumpRecording start(Plan plan, EngineSettings settings, StackSink sink,
            List<String> startNotes, JfrPeriodicTaskKeeper jfrKeeper) throws EngineUnavailableException {
        Optional<String> full = settings.diskSpace().jfrRefusal(settings.workDirectory());
        if (full.isPresent()) {
            throw new EngineUnavailableException(plan.engineId(), full.get());
        }
        jfrKeeper.beforeRecording();
        Path file = RecordingFiles.create(plan.engineId(), settings);
        Recording recording = null;
        try {
            recording = new Recording();
            recording.setName("cpuprofiler " + plan.engineId() + " " + settings.recordingName());
            recording.setToDisk(true);
            for (Map.Entry<String, Map<String, String>> event : plan.eventSettings().entrySet()) {
                EventSettings eventSettings = recording.enable(event.getKey());
                event.getValue().forEach(eventSettings::with);
            }
            Instant startedAt = Instant.now();
            recording.start();
            log.debug("{} recording started: {} into {}", plan.engineId(), plan.eventSettings(), file);
            return new JfrDumpRecording(plan, settings, sink, recording, file, startedAt, startNotes);
        } catch (RuntimeException e) {
            if (recording != null) {
                recording.close();
            }
            RecordingFiles.deleteQuietly(file);
            throw new EngineUnavailableException(plan.engineId(), "JFR could not start the recording ("
                    + EngineUnavailableException.unexpected(e) + ")", e);
        }
    }

    /** Sample events so far, counted from a dump of the running recording at most once a second. */
    @Override
    long liveCount() {
        if (liveCountFailed) {
            return liveCount;
        }
        long now = System.nanoTime();
        // A long session's dump grows: count at most once a second, and never spend more than 5% of the time on it.
        long maxAge = Math.max(LIVE_COUNT_MAX_AGE.toNanos(), 20 * liveCountCost);
        if (liveCountAt != 0 && now - liveCountAt < maxAge) {
            return liveCount;
        }
        if (stopReason().isPresent()) {
            return liveCount;  // a live dump is a copy of the recording: not onto a disk at its floor
        }
        try {
            recording.dump(liveFile);
            liveCount = countSamples(liveFile);
            liveCountAt = System.nanoTime();
            liveCountCost = liveCountAt - now;
        } catch (IOException | RuntimeException e) {
            // Only the live figure is lost; the profile is read from the final dump.
            liveCountFailed = true;
            log.debug("{}: no live sample count: {}", plan.engineId(), e.toString());
        } finally {
            RecordingFiles.deleteQuietly(liveFile);
        }
        return liveCount;
    }

    private long countSamples(Path dump) throws IOException {
        Instant notBefore = startedAt.minus(CLOCK_TOLERANCE);
        long count = 0;
        try (RecordingFile in = new RecordingFile(dump)) {
            while (in.hasMoreEvents()) {
                RecordedEvent e = in.readEvent();
                if (plan.sampleEvents().contains(e.getEventType().getName()) && !e.getStartTime().isBefore(notBefore)) {
                    count++;
                }
            }
        }
        return count;
    }

    /** JFR's repository and the dump's directory must both stay above the floor while it records. */
    @Override
    public Optional<String> stopReason() {
        return settings.diskSpace().jfrRefusal(settings.workDirectory());
    }

    @Override
    void halt() throws IOException {
        try {
            recording.stop();
            recording.dump(file());
        } finally {
            recording.close();
        }
    }

    @Override
    String haltFailure() {
        return plan.engineId() + " could not write " + file();
    }

    @Override
    EngineRecording.Result readBack() throws IOException {
        JfrSampleReader reader = new JfrSampleReader(new JfrSampleReader.Options(plan.sampleEvents(),
                settings.samplingPeriod(), settings.maxStackDepth(), false, startedAt.minus(CLOCK_TOLERANCE),
                Set.of()));
        JfrSampleReader.Summary summary = reader.read(file(), sink);
        List<String> notes = new ArrayList<>(startNotes);
        notes.addAll(plan.notes());
        notes.addAll(summary.notes(settings.maxStackDepth()));
        if (summary.events() == 0) {
            notes.add("JFR delivered no " + String.join(" or ", plan.sampleEvents()) + " events");
        }
        JfrOwnEvents.Outcome served = JfrOwnEvents.keepOnly(file(), plan.eventSettings().keySet(),
                summary.eventTypes());
        served.note().ifPresent(notes::add);
        return new EngineRecording.Result(plan.engineId(), plan.engineDetail(), summary.weight(),
                summary.failed() + summary.lost(), served.kept().orElse(null), notes, List.of());
    }

    @Override
    String readFailure() {
        return plan.engineId() + " could not read " + file();
    }

    @Override
    void discard() {
        recording.close();
    }

    /**
     * What a JFR engine records: the events with their settings, which of them are stack samples, and notes that hold
     * for every recording of this engine.
     *
     * @param engineId the engine's id
     * @param engineDetail what {@link EngineRecording.Result#engineDetail()} reports
     * @param eventSettings event name to its settings ({@code period}, {@code throttle}, ...)
     * @param sampleEvents the events that are stack samples
     * @param notes notes every result of this engine carries
     */
    record Plan(String engineId, String engineDetail, Map<String, Map<String, String>> eventSettings,
            Set<String> sampleEvents, List<String> notes) {

        Plan {
            eventSettings = Map.copyOf(eventSettings);
            sampleEvents = Set.copyOf(sampleEvents);
            notes = List.copyOf(notes);
        }
    }
}
