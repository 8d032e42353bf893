package dev.cpuprofiler.session.engine;

import dev.cpuprofiler.stack.StackSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.EventSettings;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordingStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JFR recording that is both streamed and dumped. The stream only counts samples, for a live
 * {@link #samplesSoFar()}; at stop the recording is dumped to a {@code .jfr} file in the work directory and that file
 * is parsed. Why both: JDK 17's {@code RecordingStream} has no {@code stop()} (JDK 20+), and {@code close()} drops the
 * last second of events still in JVM buffers, so streaming alone would lose the end of every profile. The dump
 * ({@code RecordingStream.dump}, JDK 17+) flushes those buffers, so the file holds every sample; parsing it is
 * deterministic, and the file is kept for the profile store. One recording, not two: both views read the same data.
 */
final class JfrStreamRecording implements EngineRecording {

    private static final Logger log = LoggerFactory.getLogger(JfrStreamRecording.class);
    // JFR converts its ticks to wall time; allow for a little skew against Instant.now() when skipping old chunks.
    private static final Duration CLOCK_TOLERANCE = Duration.ofMillis(50);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration UNKNOWN_START_WAIT = Duration.ofMillis(300);

    private final JfrRecordingPlan plan;
    private final EngineSettings settings;
    private final StackSink sink;
    private final RecordingStream stream;
    private final Path file;
    private final Instant startedAt;
    private final AtomicLong streamed = new AtomicLong();
    private final List<String> startNotes;

    private RecordingResult result;
    private RuntimeException failure;
    private boolean cancelled;

    private JfrStreamRecording(JfrRecordingPlan plan, EngineSettings settings, StackSink sink, RecordingStream stream,
            Path file, List<String> startNotes) {
        this.plan = plan;
        this.settings = settings;
        this.sink = sink;
        this.stream = stream;
        this.file = file;
        this.startNotes = List.copyOf(startNotes);
        this.startedAt = Instant.now();
    }

    /** Starts the recording; it is running when this returns. */
    static JfrStreamRecording start(JfrRecordingPlan plan, EngineSettings settings, StackSink sink,
            List<String> startNotes) throws EngineUnavailableException {
        Path file = RecordingFiles.create(plan.engineId(), settings);
        RecordingStream stream = null;
        try {
            Set<Long> existing = recordingIds();
            stream = new RecordingStream();
            Recording own = FlightRecorder.getFlightRecorder().getRecordings().stream()
                    .filter(r -> !existing.contains(r.getId())).reduce((a, b) -> b).orElse(null);
            for (Map.Entry<String, Map<String, String>> event : plan.eventSettings().entrySet()) {
                EventSettings eventSettings = stream.enable(event.getKey());
                event.getValue().forEach(eventSettings::with);
            }
            // Only counting: reuse event objects and skip ordering, which keeps the stream cheap.
            stream.setReuse(true);
            stream.setOrdered(false);
            JfrStreamRecording recording = new JfrStreamRecording(plan, settings, sink, stream, file, startNotes);
            for (String sampleEvent : plan.sampleEvents()) {
                stream.onEvent(sampleEvent, e -> recording.streamed.incrementAndGet());
            }
            startOnDaemonThread(stream, own, plan.engineId());
            log.debug("{} recording started: {} into {}", plan.engineId(), plan.eventSettings(), file);
            return recording;
        } catch (RuntimeException e) {
            if (stream != null) {
                stream.close();
            }
            RecordingFiles.deleteQuietly(file);
            throw new EngineUnavailableException(plan.engineId(), "JFR could not start the recording: " + e, e);
        }
    }

    /**
     * Runs the stream on a daemon thread of ours: {@code startAsync()} would start JFR's "JFR Event Stream" thread,
     * which is not a daemon (JDK 17 and 25), and keep an application whose work is done alive until the session
     * ends. Returns once the recording runs, so no sample is missed and a failure to start surfaces here.
     */
    private static void startOnDaemonThread(RecordingStream stream, Recording own, String engineId) {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                stream.start();  // returns when the stream is closed
            } catch (RuntimeException | Error e) {
                failed.set(e);
            }
        }, "cpuprofiler-jfr-stream");
        thread.setDaemon(true);
        thread.start();
        long start = System.nanoTime();
        while (System.nanoTime() - start < START_TIMEOUT.toNanos()) {
            Throwable e = failed.get();
            if (e != null) {
                throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
            }
            if (own == null) {
                if (System.nanoTime() - start > UNKNOWN_START_WAIT.toNanos()) {
                    return;  // could not tell which recording is ours; it has had time to start
                }
            } else if (own.getState() == RecordingState.RUNNING) {
                return;
            } else if (own.getState() == RecordingState.CLOSED) {
                throw new IllegalStateException("the JFR recording closed as it started");
            }
            LockSupport.parkNanos(2_000_000);
        }
        stream.close();
        throw new IllegalStateException(engineId + ": the JFR recording did not start within " + START_TIMEOUT);
    }

    private static Set<Long> recordingIds() {
        Set<Long> ids = new HashSet<>();
        for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
            ids.add(r.getId());
        }
        return ids;
    }

    @Override
    public String engineId() {
        return plan.engineId();
    }

    @Override
    public synchronized long samplesSoFar() {
        return result != null ? result.samples() : streamed.get();
    }

    @Override
    public synchronized RecordingResult stop() {
        if (result != null) {
            return result;
        }
        if (failure != null) {
            throw failure;
        }
        if (cancelled) {
            result = new RecordingResult(plan.engineId(), plan.engineDetail(), 0, 0, null,
                    List.of("cancelled before it was stopped"), List.of());
            return result;
        }
        try {
            stream.dump(file);
        } catch (IOException | RuntimeException e) {
            failure = new EngineFailureException(plan.engineId() + " could not write " + file, e);
        } finally {
            stream.close();
        }
        if (failure != null) {
            RecordingFiles.deleteQuietly(file);
            throw failure;
        }
        try {
            result = readBack();
            log.debug("{} recording stopped: {} samples, {} lost, file {}", plan.engineId(), result.samples(),
                    result.lostSamples(), file);
            return result;
        } catch (IOException | RuntimeException e) {
            failure = new EngineFailureException(plan.engineId() + " could not read " + file,
                    e instanceof IOException io ? new UncheckedIOException(io) : e);
            throw failure;
        }
    }

    private RecordingResult readBack() throws IOException {
        JfrSampleReader reader = new JfrSampleReader(new JfrSampleReader.Options(plan.sampleEvents(),
                settings.samplingPeriod(), settings.maxStackDepth(), false, startedAt.minus(CLOCK_TOLERANCE),
                Set.of()));
        JfrSampleReader.Summary summary = reader.read(file, sink);
        List<String> notes = new ArrayList<>(startNotes);
        notes.addAll(plan.notes());
        notes.addAll(SampleNotes.describe(summary, settings));
        if (summary.events() == 0) {
            notes.add("JFR delivered no " + String.join(" or ", plan.sampleEvents()) + " events");
        }
        return new RecordingResult(plan.engineId(), plan.engineDetail(), summary.weight(),
                summary.failed() + summary.lost(), file, notes, List.of());
    }

    @Override
    public synchronized void cancel() {
        if (result != null || failure != null || cancelled) {
            return;
        }
        cancelled = true;
        stream.close();
        RecordingFiles.deleteQuietly(file);
        log.debug("{} recording cancelled", plan.engineId());
    }
}
