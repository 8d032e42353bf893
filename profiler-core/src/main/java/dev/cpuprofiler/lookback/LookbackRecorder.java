package dev.cpuprofiler.lookback;

import dev.cpuprofiler.session.engine.EngineLock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the look-back ring filled while no session records. It samples only while it holds the shared
 * {@link EngineLock}, the same lock every session takes through its {@code EngineSelector}: so look-back and a
 * session never sample at once (two SIGPROF users break each other, and two JFR recordings of
 * {@code jdk.ExecutionSample} would both get the finer period, changing the session's). A session that starts
 * without {@link #stepAside()} fails with the lock busy instead of overlapping.
 *
 * <p>One thread of its own (from the injected factory) ticks every second: it drops buckets that left the window,
 * so an idle application's ring empties too, retries taking the lock while another recording holds it, resumes at
 * the time {@link #resumeAt} asked for, and notices another JFR recording imposing a finer period.
 *
 * <p>The clock must be the wall clock JFR stamps its events with (the system clock): samples are placed by their
 * own time and dropped by the clock's.
 */
public final class LookbackRecorder implements Lookback {

    private static final Logger log = LoggerFactory.getLogger(LookbackRecorder.class);
    static final Duration TICK = Duration.ofSeconds(1);
    // A reason to be unavailable may pass (a disk that was full gets space again): try again this often.
    static final Duration RETRY_UNAVAILABLE = Duration.ofMinutes(1);

    private final LookbackSettings settings;
    private final LookbackSource source;
    private final EngineLock lock;
    private final Clock clock;
    private final ThreadFactory threadFactory;
    private final Duration tick;
    private final LookbackRing ring;
    private final String leaseName;
    // Said once until it records again: a permanent reason would otherwise repeat after every session and retry.
    private boolean unavailableReported;

    // Guarded by this.
    private ScheduledExecutorService ticker;
    private LookbackSource.Recording recording;
    private EngineLock.Lease lease;
    private boolean started;
    private boolean closed;
    private boolean announced;
    // Read without the lock by status().
    private volatile LookbackState state = LookbackState.STOPPED;
    private volatile Instant recordingSince;
    private volatile String reason;
    private volatile Instant resumeAt;
    private Instant unavailableSince;

    /**
     * @param lock the lock the sessions' engine selector uses
     * @param threadFactory makes the one ticking thread (name it, make it a daemon)
     */
    public LookbackRecorder(LookbackSettings settings, LookbackSource source, EngineLock lock, Clock clock,
            ThreadFactory threadFactory) {
        this(settings, source, lock, clock, threadFactory, TICK);
    }

    LookbackRecorder(LookbackSettings settings, LookbackSource source, EngineLock lock, Clock clock,
            ThreadFactory threadFactory, Duration tick) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.source = Objects.requireNonNull(source, "source");
        this.lock = Objects.requireNonNull(lock, "lock");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
        this.tick = Objects.requireNonNull(tick, "tick");
        this.ring = new LookbackRing(settings);
        this.leaseName = "look-back (" + source.description() + " every " + settings.samplingPeriod().toMillis()
                + " ms)";
    }

    @Override
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (started) {
            return;
        }
        started = true;
        ticker = Executors.newSingleThreadScheduledExecutor(threadFactory);
        ticker.scheduleWithFixedDelay(this::tick, tick.toNanos(), tick.toNanos(), TimeUnit.NANOSECONDS);
        state = LookbackState.WAITING;
        tryRecord();
    }

    @Override
    public synchronized Optional<LookbackSnapshot> stepAside() {
        if (!started || closed) {
            return Optional.empty();
        }
        LookbackState before = state;
        if (recording != null) {
            recording.stop();  // delivers the samples up to now: the most recent are the likeliest culprits
            recording = null;
        }
        releaseLease();
        resumeAt = null;
        Instant end = clock.instant();
        Instant since = recordingSince;
        Duration period = ring.samplePeriod();
        LookbackRing.Contents contents = ring.drain(end);
        state = LookbackState.STEPPED_ASIDE;
        recordingSince = null;

        List<String> notes = new ArrayList<>();
        Instant startedAt = since == null ? end : max(contents.coveredFrom(), since);
        if (since == null) {
            notes.add("look-back was not recording: " + (reason != null ? reason : describe(before)));
        } else if (startedAt.isAfter(end.minus(settings.window()).plus(ring.bucketWidth()))) {
            notes.add("look-back covers " + Duration.between(startedAt, end).toMillis() / 1000.0
                    + " s of its " + settings.window() + " window: it began recording at " + since);
        }
        if (!period.equals(settings.samplingPeriod())) {
            notes.add("look-back samples came every " + period.toMillis() + " ms, not " + settings.samplingPeriod()
                    .toMillis() + " ms: another JFR recording in this JVM samples that often, and JFR applies the "
                    + "finest period to all; they are weighed accordingly");
        }
        if (contents.tree().truncatedSamples() > 0) {
            notes.add("look-back stacks of weight " + contents.tree().truncatedSamples() + " were cut (under "
                    + "[truncated]): deeper than JFR's stack depth (64 frames unless -XX:FlightRecorderOptions:"
                    + "stackdepth=… raises it) or max-stack-depth " + settings.maxStackDepth()
                    + ", or beyond the look-back's " + settings.maxTreeNodes() + "-node budget");
        }
        reason = null;
        log.debug("Look-back stepped aside: {} samples from {} to {}", contents.samples(), startedAt, end);
        return Optional.of(new LookbackSnapshot(startedAt, end, period, settings.weightUnit(), contents.samples(),
                contents.tree(), notes));
    }

    @Override
    public void resume() {
        resumeAt(clock.instant());
    }

    @Override
    public synchronized void resumeAt(Instant when) {
        Objects.requireNonNull(when, "when");
        if (!started || closed || state == LookbackState.RECORDING) {
            return;
        }
        if (when.isAfter(clock.instant())) {
            resumeAt = when;  // the ticker resumes it then
            state = LookbackState.STEPPED_ASIDE;
            log.debug("Look-back resumes at {}", when);
            return;
        }
        resumeAt = null;
        state = LookbackState.WAITING;
        tryRecord();
    }

    @Override
    public LookbackStatus status() {
        LookbackState s = state;
        Instant since = recordingSince;
        Instant from = null;
        if (s == LookbackState.RECORDING && since != null) {
            from = max(ring.coveredFrom(clock.instant()), since);
        }
        return new LookbackStatus(s, settings.window(), ring.samplePeriod(), from, resumeAt, ring.samples(),
                ring.footprintBytes(), reason);
    }

    @Override
    public void close() {
        ScheduledExecutorService t;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            state = LookbackState.STOPPED;
            if (recording != null) {
                recording.cancel();
                recording = null;
            }
            releaseLease();
            ring.clear();
            t = ticker;
            ticker = null;
        }
        if (t != null) {
            t.shutdownNow();
        }
    }

    private void tick() {
        try {
            synchronized (this) {
                if (closed) {
                    return;
                }
                if (state == LookbackState.STEPPED_ASIDE && resumeAt != null
                        && !clock.instant().isBefore(resumeAt)) {
                    resumeAt = null;
                    state = LookbackState.WAITING;
                }
                if (state == LookbackState.UNAVAILABLE && unavailableSince != null
                        && !clock.instant().isBefore(unavailableSince.plus(RETRY_UNAVAILABLE))) {
                    state = LookbackState.WAITING;
                }
                if (state == LookbackState.WAITING) {
                    tryRecord();
                } else if (state == LookbackState.RECORDING) {
                    Optional<String> failure = recording.failure();
                    if (failure.isPresent()) {
                        recording.cancel();
                        recording = null;
                        releaseLease();
                        recordingSince = null;
                        unavailable(failure.get());
                    } else {
                        usePeriod(recording.effectivePeriod());
                    }
                }
            }
            ring.evict(clock.instant());
        } catch (RuntimeException e) {
            log.debug("Look-back tick failed; next one in {}", tick, e);
        }
    }

    /** Takes the lock and starts the source, or stays waiting. Holds this. */
    private void tryRecord() {
        Optional<EngineLock.Lease> taken = lock.tryAcquire(leaseName);
        if (taken.isEmpty()) {
            reason = "waiting for the engine lock, held by " + lock.holder().orElse("a recording that just ended");
            log.debug("Look-back {}", reason);
            return;
        }
        Instant since = clock.instant();
        try {
            LookbackSource.Recording r = source.start(settings.samplingPeriod(), ring::add);
            recording = r;
            lease = taken.get();
            recordingSince = since;
            reason = null;
            state = LookbackState.RECORDING;
            ring.clear();  // nothing from before a gap is mixed in; the first sample counts from here
            usePeriod(r.effectivePeriod());
            if (unavailableReported) {
                unavailableReported = false;
                log.info("Look-back records again");
            }
            if (!announced) {
                announced = true;
                log.info("Look-back on: keeping the last {} of stack samples ({} every {} ms); it steps aside while "
                        + "a profiling session records", settings.window(), source.description(),
                        settings.samplingPeriod().toMillis());
            } else {
                log.debug("Look-back recording again");
            }
        } catch (LookbackUnavailableException | RuntimeException | LinkageError e) {
            taken.get().release();
            unavailable(e instanceof LookbackUnavailableException ? e.getMessage() : "failed to start: " + e);
        }
    }

    /** Holds this. Tried again a minute later, or after the next session ({@link #resume()}). */
    private void unavailable(String why) {
        reason = why;
        state = LookbackState.UNAVAILABLE;
        unavailableSince = clock.instant();
        if (!unavailableReported) {
            unavailableReported = true;
            log.warn("Look-back cannot record, CPU-triggered profiles will start at the trigger: {}", why);
        } else {
            log.debug("Look-back still cannot record: {}", why);
        }
    }

    private void usePeriod(Duration effective) {
        if (!effective.equals(ring.samplePeriod())) {
            log.info("Look-back samples come every {} ms: another JFR recording samples {} that often (JFR applies "
                    + "the finest period to all recordings); weighing them accordingly", effective.toMillis(),
                    source.description());
            ring.samplePeriod(effective);
        }
    }

    private void releaseLease() {
        if (lease != null) {
            lease.release();
            lease = null;
        }
    }

    private static String describe(LookbackState s) {
        return switch (s) {
            case WAITING -> "another recording held the engine lock";
            case STEPPED_ASIDE -> "it steps aside during sessions and the cooldown after a CPU-triggered one";
            default -> "it was " + s.name().toLowerCase(Locale.ROOT);
        };
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
