package dev.cpuprofiler.internal.lookback;

import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.LookbackSnapshot;

import dev.cpuprofiler.internal.cpu.CpuSampleListener;
import dev.cpuprofiler.internal.engine.EngineLock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.DoubleSupplier;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the look-back ring filled while it is armed and no session records ({@link ArmingSettings}: armed when the
 * recent CPU rises above a level below the trigger's threshold, idle otherwise, so a calm application runs no JFR at
 * all). It samples only while it holds the shared {@link EngineLock}, the same lock every session takes through its
 * {@code EngineSelector}: look-back and a session never sample at once (two SIGPROF users break each other, and two
 * JFR recordings of one event would both get the finer period). A session that starts without {@link #handOver()}
 * fails with the lock busy instead of overlapping.
 *
 * <p>It has no thread of its own in production: the CPU sampler's tick drives it ({@link #onSample}), once a second,
 * to arm, disarm, drop buckets that left the window, retry the lock, and notice another JFR recording imposing a finer
 * period. It has one mode: {@link ArmingSettings#ALWAYS} keeps it armed, ticked all the same.
 *
 * <p>The clock must be the wall clock JFR stamps its events with (the system clock): samples are placed by their
 * own time and dropped by the clock's.
 */
public final class LookbackRecorder implements Lookback, CpuSampleListener {

    private static final Logger log = LoggerFactory.getLogger(LookbackRecorder.class);
    static final Duration TICK = Duration.ofSeconds(1);
    // A reason to be unavailable may pass (a disk that was full gets space again): try again this often.
    static final Duration RETRY_UNAVAILABLE = Duration.ofMinutes(1);
    // Longest wait in a hand-over's snapshot for the last samples (JFR flushes every second).
    static final Duration DELIVERY_WAIT = Duration.ofSeconds(3);

    private final LookbackSettings settings;
    private final ArmingSettings arming;
    private final ArmingSignal signal;
    private final ArmingSignal threadSignal;
    private final NormalLevel normal;
    private final NormalLevel threadNormal;
    private final DoubleSupplier hottestThreadPercent;
    private final LookbackSource source;
    private final EngineLock lock;
    private final Clock clock;
    private final LookbackRing ring;
    private final String leaseName;
    // Said once until it records again: a permanent reason would otherwise repeat after every session and retry.
    private boolean unavailableReported;

    // Guarded by this.
    private LookbackSource.Recording recording;
    private EngineLock.Lease lease;
    private boolean started;
    private boolean closed;
    private Instant lastHot;
    private Instant unavailableSince;
    // Read without the lock by status().
    private volatile CpuProfilerStatus.LookbackState state = CpuProfilerStatus.LookbackState.STOPPED;
    private volatile Instant recordingSince;
    private volatile String reason;
    private volatile Instant resumeAt;
    private volatile Instant graceUntil;

    /**
     * Armed by the CPU (or always), driven by the CPU sampler's tick ({@link #onSample}): no thread of its own.
     *
     * @param lock the lock the sessions' engine selector uses
     */
    public LookbackRecorder(LookbackSettings settings, ArmingSettings arming, LookbackSource source, EngineLock lock,
            Clock clock) {
        this(settings, arming, source, lock, clock, () -> Double.NaN);
    }

    /**
     * @param hottestThreadPercent the highest share of one core a thread used at the latest tick (read on each tick,
     *        after the thread tracker's), for {@link ArmingSettings#threadLevelPercent()}
     */
    public LookbackRecorder(LookbackSettings settings, ArmingSettings arming, LookbackSource source, EngineLock lock,
            Clock clock, DoubleSupplier hottestThreadPercent) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.arming = Objects.requireNonNull(arming, "arming");
        this.signal = new ArmingSignal(arming.smoothingSamples());
        this.threadSignal = new ArmingSignal(arming.smoothingSamples());
        this.normal = new NormalLevel(arming.normalBucketSamples(), ArmingSettings.normalBuckets());
        this.threadNormal = new NormalLevel(arming.normalBucketSamples(), ArmingSettings.normalBuckets());
        this.hottestThreadPercent = Objects.requireNonNull(hottestThreadPercent, "hottestThreadPercent");
        this.source = Objects.requireNonNull(source, "source");
        this.lock = Objects.requireNonNull(lock, "lock");
        this.clock = Objects.requireNonNull(clock, "clock");
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
        graceUntil = clock.instant().plus(arming.startupGrace());
        if (arming.always() && arming.startupGrace().isZero()) {
            state = CpuProfilerStatus.LookbackState.WAITING;
            tryRecord();
        } else {
            state = CpuProfilerStatus.LookbackState.IDLE;
            log.debug("Look-back idle: arms when the CPU over {} rises {} points above its normal, and above {}%, "
                    + "from {}", arming.smoothing(), fmt(arming.risePercent()), fmt(arming.levelPercent()), graceUntil);
        }
    }

    /** One CPU sample, on the sampler's thread: feeds the arming signal, then ticks. */
    @Override
    public void onSample(long nanoTime, long cpuTimeNanos, double percent) {
        signal.add(percent);
        normal.add(percent);
        if (!Double.isNaN(arming.threadLevelPercent())) {
            double thread = hottestThreadPercent.getAsDouble();
            threadSignal.add(thread);
            threadNormal.add(thread);
        }
        if (state == CpuProfilerStatus.LookbackState.IDLE && !hot()) {
            return; // calm and idle: nothing to arm, an empty ring to evict; the common case costs no more than this
        }
        tick();
    }

    @Override
    public synchronized Optional<LookbackHandOver> handOver() {
        if (!started || closed) {
            return Optional.empty();
        }
        CpuProfilerStatus.LookbackState before = state;
        String beforeReason = reason;
        CompletionStage<Void> delivered = null;
        if (recording != null) {
            // Stops sampling now; the samples up to now are still on their way and land in the ring.
            delivered = recording.handOver();
            recording = null;
        }
        releaseLease();
        resumeAt = null;
        Instant end = clock.instant();
        Instant since = recordingSince;
        state = CpuProfilerStatus.LookbackState.STEPPED_ASIDE;
        recordingSince = null;
        reason = null;
        return Optional.of(new HandOver(before, beforeReason, since, end, delivered));
    }

    /** The samples of one hand-over, taken once they are delivered. */
    private final class HandOver implements LookbackHandOver {
        private final CpuProfilerStatus.LookbackState before;
        private final String beforeReason;
        private final Instant since;
        private final Instant end;
        private final CompletionStage<Void> delivered;
        private LookbackSnapshot snapshot;

        HandOver(CpuProfilerStatus.LookbackState before, String beforeReason, Instant since, Instant end,
                CompletionStage<Void> delivered) {
            this.before = before;
            this.beforeReason = beforeReason;
            this.since = since;
            this.end = end;
            this.delivered = delivered;
        }

        @Override
        public synchronized LookbackSnapshot snapshot() {
            if (snapshot == null) {
                boolean complete = awaitDelivery();
                snapshot = take(before, beforeReason, since, end, complete);
            }
            return snapshot;
        }

        private boolean awaitDelivery() {
            if (delivered == null) {
                return true;
            }
            try {
                delivered.toCompletableFuture().get(DELIVERY_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (ExecutionException | TimeoutException e) {
                log.debug("Look-back's last samples did not arrive in {}: {}", DELIVERY_WAIT, e.toString());
                return false;
            }
        }
    }

    private synchronized LookbackSnapshot take(CpuProfilerStatus.LookbackState before, String beforeReason, Instant since, Instant end,
            boolean complete) {
        Duration period = ring.samplePeriod();
        LookbackRing.Contents contents = ring.drain(end);
        List<String> notes = new ArrayList<>();
        Instant startedAt = since == null ? end : max(contents.coveredFrom(), since);
        if (since == null) {
            notes.add("look-back was not recording: " + (beforeReason != null ? beforeReason : describe(before)));
        } else if (startedAt.isAfter(end.minus(settings.window()).plus(ring.bucketWidth()))) {
            notes.add("look-back covers " + Duration.between(startedAt, end).toMillis() / 1000.0
                    + " s of its " + settings.window() + " window: it " + (arming.always() ? "began recording"
                            : "armed") + " at " + since);
        }
        if (!complete) {
            notes.add("look-back's last samples (up to a second before the session) did not arrive in time");
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
        log.debug("Look-back handed over: {} samples from {} to {}", contents.samples(), startedAt, end);
        return new LookbackSnapshot(startedAt, end, period, settings.weightUnit(), contents.samples(),
                contents.tree(), notes);
    }

    @Override
    public void resume() {
        resumeAt(clock.instant());
    }

    @Override
    public synchronized void resumeAt(Instant when) {
        Objects.requireNonNull(when, "when");
        if (!started || closed || state == CpuProfilerStatus.LookbackState.ARMED) {
            return;
        }
        if (when.isAfter(clock.instant())) {
            resumeAt = when;  // a tick resumes it then
            state = CpuProfilerStatus.LookbackState.IDLE;
            log.debug("Look-back may arm again from {}", when);
            return;
        }
        resumeAt = null;
        afterPause();
    }

    @Override
    public CpuProfilerStatus.Lookback status() {
        CpuProfilerStatus.LookbackState s = state;
        Instant now = clock.instant();
        Instant since = recordingSince;
        Instant from = null;
        if (s == CpuProfilerStatus.LookbackState.ARMED && since != null) {
            from = max(ring.coveredFrom(now), since);
        }
        double recent = signal.mean();
        String why = reason;
        if (s == CpuProfilerStatus.LookbackState.IDLE && why == null) {
            why = idleReason(now);
        }
        Instant armsFrom = s == CpuProfilerStatus.LookbackState.IDLE || s == CpuProfilerStatus.LookbackState.STEPPED_ASIDE ? armableFrom() : null;
        if (armsFrom != null && !armsFrom.isAfter(now)) {
            armsFrom = null;
        }
        double usual = normal.lowest();
        return new CpuProfilerStatus.Lookback(s, settings.window(), ring.samplePeriod(), from, armsFrom, ring.samples(),
                ring.footprintBytes(), why, source.description(),
                arming.always() ? null : arming.levelPercent(usual), Double.isNaN(recent) ? null : recent,
                s == CpuProfilerStatus.LookbackState.ARMED ? since : null,
                arming.always() || Double.isNaN(usual) ? null : usual);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            state = CpuProfilerStatus.LookbackState.STOPPED;
            if (recording != null) {
                recording.cancel();
                recording = null;
            }
            releaseLease();
            ring.clear();
        }
    }

    /**
     * One tick: arms or disarms, retries, evicts. Package-private so that tests can drive ticks themselves, one at a
     * time. Never throws.
     */
    void tick() {
        try {
            Instant now = clock.instant();
            synchronized (this) {
                if (closed || !started) {
                    return;
                }
                boolean hot = hot();
                if (hot) {
                    lastHot = now;
                }
                if (state == CpuProfilerStatus.LookbackState.IDLE && resumeAt != null && !now.isBefore(resumeAt)) {
                    resumeAt = null;
                }
                if (state == CpuProfilerStatus.LookbackState.UNAVAILABLE && unavailableSince != null
                        && !now.isBefore(unavailableSince.plus(RETRY_UNAVAILABLE))) {
                    afterPause();
                }
                switch (state) {
                    case IDLE -> {
                        if (hot && armable(now)) {
                            state = CpuProfilerStatus.LookbackState.WAITING;
                            tryRecord();
                        }
                    }
                    case WAITING -> {
                        if (cooledDown(now)) {
                            state = CpuProfilerStatus.LookbackState.IDLE;
                            reason = null;
                        } else {
                            tryRecord();
                        }
                    }
                    case ARMED -> checkRecording(now);
                    default -> {
                    }
                }
            }
            ring.evict(now);
        } catch (RuntimeException e) {
            log.debug("Look-back tick failed; next one in {}", TICK, e);
        }
    }

    /** Holds this. */
    private void checkRecording(Instant now) {
        Optional<String> failure = recording.failure();
        if (failure.isPresent()) {
            recording.cancel();
            recording = null;
            releaseLease();
            recordingSince = null;
            unavailable(failure.get());
        } else if (cooledDown(now)) {
            disarm();
        } else {
            usePeriod(recording.effectivePeriod());
        }
    }

    /** The CPU stayed at or below the level for disarmAfter. Holds this. */
    private boolean cooledDown(Instant now) {
        return !arming.always() && (lastHot == null || !now.isBefore(lastHot.plus(arming.disarmAfter())));
    }

    /** Stops recording and frees the ring: nothing in it is recent enough to explain a trigger. Holds this. */
    private void disarm() {
        recording.cancel();
        recording = null;
        releaseLease();
        ring.clear();
        recordingSince = null;
        reason = null;
        state = CpuProfilerStatus.LookbackState.IDLE;
        log.info("Look-back disarmed: the CPU stayed at or below its arming level ({}% now) for {}; its recording is "
                + "stopped and its ring freed", fmt(arming.levelPercent(normal.lowest())), arming.disarmAfter());
    }

    /** After a session or an unavailable spell: armed at once if it should be, idle otherwise. Holds this. */
    private void afterPause() {
        state = CpuProfilerStatus.LookbackState.IDLE;
        reason = null;
        Instant now = clock.instant();
        if (hot() && armable(now)) {
            state = CpuProfilerStatus.LookbackState.WAITING;
            tryRecord();
        }
    }

    /** Whether to be armed: always, or the process's recent CPU% or one thread's rose above its arming level. */
    private boolean hot() {
        return arming.always() || processHot() || threadHot();
    }

    /** The floor first: a calm tick compares one number and never looks at the normal level. */
    private boolean processHot() {
        return signal.above(arming.levelPercent()) && signal.above(arming.levelPercent(normal.lowest()));
    }

    /** One thread's recent CPU (NaN-safe: off without the saturation trigger) rose above its arming level. */
    private boolean threadHot() {
        return !Double.isNaN(arming.threadLevelPercent()) && threadSignal.above(arming.threadLevelPercent())
                && threadSignal.above(arming.threadLevelPercent(threadNormal.lowest()));
    }

    private boolean armable(Instant now) {
        Instant from = armableFrom();
        return from == null || !now.isBefore(from);
    }

    /** The earliest time it may arm: the end of the start-up grace or the time a session's end asked for. */
    private Instant armableFrom() {
        Instant grace = graceUntil;
        Instant resume = resumeAt;
        if (grace == null) {
            return resume;
        }
        return resume == null ? grace : max(grace, resume);
    }

    private String idleReason(Instant now) {
        Instant grace = graceUntil;
        Instant resume = resumeAt;
        if (resume != null && now.isBefore(resume)) {
            return "it steps aside during the cooldown after a CPU-triggered profile; it may arm again from " + resume
                    + ", one window before the trigger can fire again";
        }
        if (grace != null && now.isBefore(grace)) {
            return "start-up grace: it may arm from " + grace;
        }
        double recent = signal.mean();
        if (Double.isNaN(recent)) {
            return "waiting for " + seconds(arming.smoothing()) + " of CPU samples";
        }
        double usual = normal.lowest();
        double threadLevel = arming.threadLevelPercent(threadNormal.lowest());
        return "the CPU over the last " + seconds(arming.smoothing()) + ", " + fmt(recent)
                + "%, is not above the arming level " + fmt(arming.levelPercent(usual)) + "% (" + levelWhy(usual)
                + ")" + (Double.isNaN(threadLevel) ? "" : ", nor any thread's above " + fmt(threadLevel)
                        + "% of one core");
    }

    /** Why the arming level is what it is, for a CPU whose normal is {@code usual}. */
    private String levelWhy(double usual) {
        String floor = fmt(arming.ratio()) + " of the " + fmt(arming.thresholdPercent()) + "% threshold";
        double level = arming.levelPercent(usual);
        if (Double.isNaN(usual) || level == arming.levelPercent()) {
            return floor;
        }
        String normalIs = "its normal, the lowest " + seconds(ArmingSettings.NORMAL_BUCKET) + " average of the last "
                + ArmingSettings.NORMAL_SPAN.toMinutes() + " min, is " + fmt(usual) + "%";
        if (level == arming.thresholdPercent()) {
            return "the threshold: " + normalIs + ", within " + fmt(arming.risePercent()) + " points of it";
        }
        return normalIs + ": it arms on a rise of " + fmt(arming.risePercent()) + " points above it, and above "
                + floor;
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
            ring.clear();  // nothing from before a gap is mixed in; the first sample counts from here
            LookbackSource.Recording r = source.start(settings.samplingPeriod(), ring::add);
            recording = r;
            lease = taken.get();
            recordingSince = since;
            lastHot = since;
            reason = null;
            state = CpuProfilerStatus.LookbackState.ARMED;
            usePeriod(r.effectivePeriod());
            if (unavailableReported) {
                unavailableReported = false;
                log.info("Look-back records again");
            }
            if (arming.always()) {
                log.info("Look-back on: keeping the last {} of stack samples ({} every {} ms); it steps aside while "
                        + "a profiling session records", settings.window(), source.description(),
                        settings.samplingPeriod().toMillis());
            } else if (threadHot() && !processHot()) {
                double usual = threadNormal.lowest();
                log.info("Look-back armed: a thread used {}% of one core over the last {}, above {}% (at least {} of "
                        + "the saturation threshold{}); keeping the last {} of stack samples ({} every {} ms)",
                        fmt(threadSignal.mean()), seconds(arming.smoothing()), fmt(arming.threadLevelPercent(usual)),
                        fmt(arming.ratio()), Double.isNaN(usual) ? "" : ", and a rise above the hottest thread's "
                                + "normal " + fmt(usual) + "%", settings.window(), source.description(),
                        settings.samplingPeriod().toMillis());
            } else {
                double usual = normal.lowest();
                log.info("Look-back armed: the CPU over the last {}, {}%, is above {}% ({}); keeping the last {} of "
                        + "stack samples ({} every {} ms) until it stays at or below that for {}",
                        seconds(arming.smoothing()), fmt(signal.mean()), fmt(arming.levelPercent(usual)),
                        levelWhy(usual), settings.window(), source.description(), settings.samplingPeriod().toMillis(),
                        arming.disarmAfter());
            }
        } catch (LookbackUnavailableException | RuntimeException | LinkageError e) {
            taken.get().release();
            // The reason is served (the status): an unexpected exception's text goes only to the log.
            if (!(e instanceof LookbackUnavailableException) || e.getCause() != null) {
                log.warn("Look-back failed to start", e);
            }
            unavailable(e instanceof LookbackUnavailableException ? e.getMessage() : "failed to start ("
                    + EngineUnavailableException.unexpected(e) + ")");
        }
    }

    /** Holds this. Tried again a minute later, or after the next session ({@link #resume()}). */
    private void unavailable(String why) {
        reason = why;
        state = CpuProfilerStatus.LookbackState.UNAVAILABLE;
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

    private static String describe(CpuProfilerStatus.LookbackState s) {
        return switch (s) {
            case WAITING -> "another recording held the engine lock";
            case STEPPED_ASIDE -> "it steps aside during sessions and the cooldown after a CPU-triggered one";
            case IDLE -> "it was idle: the CPU had not reached its arming level";
            default -> "it was " + s.name().toLowerCase(Locale.ROOT);
        };
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
