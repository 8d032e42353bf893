package dev.cpuprofiler.internal.lookback;

import static dev.cpuprofiler.internal.lookback.ArmingDecision.fmt;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.internal.cpu.CpuSampleListener;
import dev.cpuprofiler.internal.engine.EngineLock;
import dev.cpuprofiler.internal.engine.EngineUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the look-back ring filled while it is armed and no session records ({@link ArmingDecision}: armed when the
 * recent CPU rises above a level below the trigger's threshold, idle otherwise, so a calm application runs no JFR at
 * all; held back as the trigger is, by the trigger's own holds). It samples only while it holds the shared
 * {@link EngineLock}, the same lock every session takes through its {@code EngineSelector}: look-back and a session
 * never sample at once (two SIGPROF users break each other, and two JFR recordings of one event would both get the
 * finer period). A session that starts without {@link #handOver()} fails with the lock busy instead of overlapping.
 *
 * <p>It has no thread of its own in production: the CPU sampler's tick drives it ({@link #onSample}), once a second,
 * to arm, disarm, drop buckets that left the window, retry the lock, and notice another JFR recording imposing a finer
 * period. Tests may have it armed from the start, never disarmed, ticked all the same.
 *
 * <p>The clock must be the wall clock JFR stamps its events with (the system clock): samples are placed by their
 * own time and dropped by the clock's.
 */
public final class LookbackRecorder implements Lookback, CpuSampleListener {

    private static final Logger log = LoggerFactory.getLogger(LookbackRecorder.class);
    static final Duration TICK = Duration.ofSeconds(1);
    // A reason to be unavailable may pass (a disk that was full gets space again): try again this often.
    static final Duration RETRY_UNAVAILABLE = Duration.ofMinutes(1);

    private final ArmingDecision decision;
    private final TriggerHolds holds;
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

    /**
     * Armed by the CPU, driven by the CPU sampler's tick ({@link #onSample}): no thread of its own. Reads the
     * look-back's settings, and the sessions' it merges into, from {@code options} ({@link LookbackRing},
     * {@link ArmingDecision}).
     *
     * @param holds the trigger's holds: it is held back as the trigger is, and resumes nothing once they say the
     *        profiler shuts down
     * @param lock the lock the sessions' engine selector uses
     * @param hottestThreadPercent the highest share of one core a thread used at the latest tick (read on each tick,
     *        after the thread tracker's), for {@link ArmingLevel#threadLevelPercent()}
     */
    public LookbackRecorder(CpuProfilerOptions options, TriggerHolds holds, LookbackSource source, EngineLock lock,
            Clock clock, DoubleSupplier hottestThreadPercent) {
        this(options, false, holds, source, lock, clock, hottestThreadPercent);
    }

    /** @param alwaysArmed armed from the start, whatever the CPU, and never disarmed */
    LookbackRecorder(CpuProfilerOptions options, boolean alwaysArmed, TriggerHolds holds, LookbackSource source,
            EngineLock lock, Clock clock, DoubleSupplier hottestThreadPercent) {
        this.holds = Objects.requireNonNull(holds, "holds");
        this.decision = new ArmingDecision(options, alwaysArmed, holds, hottestThreadPercent);
        this.source = Objects.requireNonNull(source, "source");
        this.lock = Objects.requireNonNull(lock, "lock");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.ring = new LookbackRing(options);
        this.leaseName = "look-back (" + source.description() + " every " + ring.samplingPeriod().toMillis()
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
        Instant now = clock.instant();
        if (decision.always() && decision.armable(now)) {
            state = CpuProfilerStatus.LookbackState.WAITING;
            tryRecord();
        } else {
            state = CpuProfilerStatus.LookbackState.IDLE;
            Instant from = decision.armsFrom(now);
            log.debug("Look-back idle: arms when the CPU over {} rises {} points above its normal, and above {}%, "
                    + "from {}", decision.smoothing(), fmt(decision.level().risePercent()),
                    fmt(decision.level().floorPercent()), from != null ? from : now);
        }
    }

    /** One CPU sample, on the sampler's thread: feeds the arming decision, then ticks. */
    @Override
    public void onSample(long nanoTime, long cpuTimeNanos, double percent) {
        decision.add(percent);
        if (state == CpuProfilerStatus.LookbackState.IDLE && !decision.hot()) {
            return; // calm and idle: nothing to arm, an empty ring to evict; the common case costs no more than this
        }
        tick();
    }

    @Override
    public synchronized Optional<LookbackHandOver> handOver() {
        if (!started || closed) {
            return Optional.empty();
        }
        LookbackHandOver.Before before = new LookbackHandOver.Before(state, reason, recordingSince);
        CompletionStage<Void> delivered = null;
        if (recording != null) {
            // Stops sampling now; the samples up to now are still on their way and land in the ring.
            delivered = recording.handOver();
            recording = null;
        }
        releaseLease();
        state = CpuProfilerStatus.LookbackState.STEPPED_ASIDE;
        recordingSince = null;
        reason = null;
        return Optional.of(new LookbackHandOver(ring, decision.always(), this, before, clock.instant(),
                delivered));
    }

    /**
     * After a session: armed at once if it should be and the holds let it, idle otherwise (a tick arms it later).
     * Nothing once the profiler shuts down: no engine starts again while the application shuts down (the web server
     * may drain requests for many seconds before the profiler closes).
     */
    @Override
    public synchronized void resume() {
        if (!started || closed || state == CpuProfilerStatus.LookbackState.ARMED || holds.isShutDown()) {
            return;
        }
        afterPause();
        Instant from = decision.armsFrom(clock.instant());
        if (from != null) {
            log.debug("Look-back may arm again from {}", from);
        }
    }

    @Override
    public boolean rising() {
        return decision.hot();
    }

    @Override
    public CpuProfilerStatus.Lookback status() {
        CpuProfilerStatus.LookbackState s = state;
        Instant now = clock.instant();
        Instant since = recordingSince;
        boolean armed = s == CpuProfilerStatus.LookbackState.ARMED;
        Instant from = armed && since != null ? LookbackHandOver.max(ring.coveredFrom(now), since) : null;
        String why = reason;
        if (s == CpuProfilerStatus.LookbackState.IDLE && why == null) {
            why = decision.idleReason(now);
        }
        Instant armsFrom = s == CpuProfilerStatus.LookbackState.IDLE || s == CpuProfilerStatus.LookbackState.STEPPED_ASIDE
                ? decision.armsFrom(now) : null;
        return new CpuProfilerStatus.Lookback(s, ring.window(), ring.samplePeriod(), from, armsFrom, ring.samples(),
                ring.footprintBytes(), why, source.description(), decision.levelPercent(), decision.recentPercent(),
                armed ? since : null, decision.normalPercent());
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
                boolean hot = decision.hot();
                if (hot) {
                    lastHot = now;
                }
                if (state == CpuProfilerStatus.LookbackState.UNAVAILABLE && unavailableSince != null
                        && !now.isBefore(unavailableSince.plus(RETRY_UNAVAILABLE))) {
                    afterPause();
                }
                switch (state) {
                    case IDLE -> {
                        if (hot && decision.armable(now)) {
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
        return !decision.always() && (lastHot == null || !now.isBefore(lastHot.plus(decision.disarmAfter())));
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
                + "stopped and its ring freed", fmt(decision.levelPercent()), decision.disarmAfter());
    }

    /** After a session or an unavailable spell: armed at once if it should be, idle otherwise. Holds this. */
    private void afterPause() {
        state = CpuProfilerStatus.LookbackState.IDLE;
        reason = null;
        if (decision.hot() && decision.armable(clock.instant())) {
            state = CpuProfilerStatus.LookbackState.WAITING;
            tryRecord();
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
            ring.clear();  // nothing from before a gap is mixed in; the first sample counts from here
            LookbackSource.Recording r = source.start(ring.samplingPeriod(), ring::add);
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
            if (decision.always()) {
                log.info("Look-back on: keeping the last {} of stack samples ({} every {} ms); it steps aside while "
                        + "a profiling session records", ring.window(), source.description(),
                        ring.samplingPeriod().toMillis());
            } else {
                log.info("Look-back armed: {}; keeping the last {} of stack samples ({} every {} ms) until it stays "
                        + "at or below its arming level for {}", decision.armedReason(), ring.window(),
                        source.description(), ring.samplingPeriod().toMillis(), decision.disarmAfter());
            }
        } catch (LookbackSource.UnavailableException | RuntimeException | LinkageError e) {
            taken.get().release();
            // The reason is served (the status): an unexpected exception's text goes only to the log.
            if (!(e instanceof LookbackSource.UnavailableException) || e.getCause() != null) {
                log.warn("Look-back failed to start", e);
            }
            unavailable(e instanceof LookbackSource.UnavailableException ? e.getMessage() : "failed to start ("
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
}
