package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.cpu.DebugLevel;
import dev.cpuprofiler.internal.requests.LatencyRule;
import dev.cpuprofiler.internal.threads.SaturationReading;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether to start a profile now, and which: the average, the hottest thread's reading, what else runs and the
 * {@link Holds} in, a trigger or none out; no lock, no thread, no state of its own. A CPU-triggered profile when the
 * average is strictly above the threshold; else, with the saturation trigger on, a SATURATION one when one application
 * thread has been pinned at or above its threshold of one core over its window ({@link SaturationReading}), however
 * low the CPU% is. The CPU keeps precedence when both hold. Neither while the trigger is disabled, in the start-up
 * grace or in a cooldown. Else, with the latency trigger on, past the grace and its own cooldown, a LATENCY one when
 * an endpoint's requests turned slow ({@link LatencyRule}), unless the CPU trigger owns the moment ({@link #cpuOwns}:
 * one incident, one profile), whatever {@code profiler.cpu.enabled} says otherwise.
 *
 * <p>Else a REFERENCE profile, the reference of normal, when one is due (none recorded yet, or the last as old as the
 * refresh, no failed attempt holding the next back, past the start-up grace) and the application is calm
 * ({@link #unrest}: the average known and not above the threshold, no thread pinned, the CPU not rising above its
 * normal) with no session recording or being launched. A cooldown does not hold it back: calm is calm. While a
 * reference records, only the CPU and saturation triggers are asked (the coordinator cancels the reference for them,
 * and also once the application is no longer calm). Whether a session runs, and the shutdown, are the
 * {@link SessionCoordinator}'s.
 *
 * <p>It says what it saw and why: at DEBUG on every poll, at INFO when it triggers (a reference is said at INFO once
 * recorded, by its session).
 */
final class TriggerDecision {

    private static final Logger log = LoggerFactory.getLogger(TriggerDecision.class);

    /**
     * The fewest stack samples a reference is worth recording for, at the CPU average: an idle application gets no
     * reference (it has no normal worth comparing with, and recording one would cost it more than everything else the
     * profiler does while it idles). The floor works with the coordinator's settle time: an application leaving its
     * idle stretch is busy enough at once, but not yet calm for long.
     */
    static final int MIN_REFERENCE_SAMPLES = 20;

    private final boolean enabled;
    private final double thresholdPercent;
    private final Duration duration;
    private final boolean saturationOn;
    private final double saturationPercent;
    private final Duration saturationWindow;
    private final boolean referenceOn;
    private final Duration referenceDuration;
    private final Duration referenceRefresh;
    private final boolean latencyOn;
    private final double idleBelowPercent;
    private final DebugLevel debug = new DebugLevel(log);

    /** What runs besides the application, as a reference of normal sees it. */
    enum Activity {
        /** No session records or is being launched, and the CPU is not rising above its normal. */
        NONE,
        /** No session, but the CPU is rising above its normal (by the look-back's arming rule): not calm. */
        RISING,
        /** A reference records: only the CPU and saturation triggers may start a profile (which cancels it). */
        REFERENCE_RECORDING
    }

    /**
     * @param threadCpu whether this JVM measures per-thread CPU: without it the saturation trigger is off
     * @param effectiveCpus the CPUs the average is a percentage of, for the idle floor of a reference
     */
    TriggerDecision(CpuProfilerOptions options, boolean threadCpu, double effectiveCpus) {
        this.enabled = options.isEnabled();
        this.thresholdPercent = options.getThreshold();
        this.duration = options.getDuration();
        this.saturationOn = enabled && options.getSaturation().isEnabled() && threadCpu;
        this.saturationPercent = options.getSaturation().getThreshold();
        this.saturationWindow = options.effectiveSaturationWindow();
        this.referenceOn = options.getReference().isEnabled();
        this.referenceDuration = options.getReference().getDuration();
        this.referenceRefresh = options.getReference().getRefresh();
        this.latencyOn = options.getLatency().isEnabled();
        double samplesAtFullLoad = effectiveCpus * referenceDuration.toNanos()
                / (double) options.getStackSamplingPeriod().toNanos();
        this.idleBelowPercent = 100.0 * MIN_REFERENCE_SAMPLES / samplesAtFullLoad;
    }

    /**
     * The least CPU average (percent of the effective CPUs) at which a reference is recorded: below it the application
     * is idle, and a reference would hold fewer than {@link #MIN_REFERENCE_SAMPLES} samples.
     */
    double idleBelowPercent() {
        return idleBelowPercent;
    }

    /** Whether a pinned thread starts sessions: the CPU trigger and the saturation trigger on, per-thread CPU here. */
    boolean saturationOn() {
        return saturationOn;
    }

    /**
     * Whether neither trigger could fire, seen without the holds, the clock or a log call: the average is not above
     * the threshold and no thread is pinned. The common poll of a monitored application, and on a calm one most of an
     * idle tick's cost when it took the whole way interpreted. Never at DEBUG, so that every poll says
     * what it saw. Called on one thread, the poller's. A reference may still be due: {@link #referenceMayBeDue}.
     */
    boolean nothingToDecide(OptionalDouble average, Optional<SaturationReading> hottest,
            Optional<LatencyRule.SlowEndpoint> slow) {
        return !debug.on() && !(average.isPresent() && average.getAsDouble() > thresholdPercent)
                && !pinned(hottest) && !(latencyOn && slow.isPresent());
    }

    /**
     * Whether a reference is due by the holds (enabled, none or an old one, no retry pending, past the grace) and the
     * average is not idle; reads the clock only when references are on and the application is not idle, so that an
     * idle application, which never gets one, pays nothing for it at each poll. Whether it is calm enough is
     * {@link #decide}'s.
     */
    boolean referenceMayBeDue(Holds holds, Clock clock, OptionalDouble average) {
        if (!referenceOn || average.isEmpty() || idle(average)) {
            return false;
        }
        Instant now = clock.instant();
        return !now.isBefore(referenceDueAt(holds)) && holds.referenceRetryAt(now).isEmpty()
                && holds.graceUntil(now).isEmpty();
    }

    /** The trigger of the profile to start at {@code now}, or empty. */
    Optional<SessionTrigger> decide(OptionalDouble average, Optional<SaturationReading> hottest,
            Optional<LatencyRule.SlowEndpoint> slow, Activity activity, Holds holds, Instant now) {
        if (triggerOn(holds, now)) {
            if (cpuAboveThreshold(average)) {
                return Optional.of(SessionTrigger.CPU);
            }
            if (threadSaturated(hottest)) {
                return Optional.of(SessionTrigger.SATURATION);
            }
        }
        if (latencyOn && slow.isPresent()) {
            // Slow requests are no normal either: no reference while they last, in the cooldown too.
            if (cpuOwns(average, hottest)) {
                log.debug("{}: requests slow while the CPU trigger's condition holds: its profile is the incident's",
                        slow.get().endpoint());
                return Optional.empty();
            }
            return latencyTriggers(slow.get(), holds, now) ? Optional.of(SessionTrigger.LATENCY) : Optional.empty();
        }
        return referenceDue(average, hottest, activity, holds, now) ? Optional.of(SessionTrigger.REFERENCE)
                : Optional.empty();
    }

    /**
     * Whether the CPU trigger owns the moment: on, and the average above its threshold or a thread pinned with the
     * saturation trigger on, whether it fires now or is held by its grace or cooldown. Slow requests then are that
     * incident's, profiled by its session (or just were): no LATENCY profile of the same incident besides, and a
     * LATENCY session that ends at such a moment starts the CPU trigger's cooldown too.
     */
    boolean cpuOwns(OptionalDouble average, Optional<SaturationReading> hottest) {
        return enabled && (average.isPresent() && average.getAsDouble() > thresholdPercent || pinned(hottest));
    }

    /** Whether the slow endpoint starts a LATENCY profile at {@code now}: past the grace and the latency cooldown. */
    private boolean latencyTriggers(LatencyRule.SlowEndpoint slow, Holds holds, Instant now) {
        Optional<Instant> held = holds.graceUntil(now).or(() -> holds.latencyCooldownUntil(now));
        if (held.isPresent()) {
            log.debug("{}: {} of {} requests slower than {} ms, held back until {}", slow.endpoint(),
                    slow.slowRequests(), slow.requests(), String.format("%.0f", slow.cutMillis()), held.get());
            return false;
        }
        log.info("{}: {} of {} requests in the window took longer than {} ms (95th percentile {} ms{}): starting a "
                + "LATENCY-triggered profiling session for {}", slow.endpoint(), slow.slowRequests(), slow.requests(),
                String.format("%.0f", slow.cutMillis()), String.format("%.0f", slow.p95Millis()),
                slow.normalP95Millis() == null ? "" : ", " + String.format("%.0f", slow.normalP95Millis())
                        + " ms in the reference of normal", duration);
        return true;
    }

    /** Whether the average is under the least at which a reference would hold enough samples. */
    private boolean idle(OptionalDouble average) {
        return average.getAsDouble() < idleBelowPercent;
    }

    /** When the next reference is due: now when none was recorded, else once the last is as old as the refresh. */
    private Instant referenceDueAt(Holds holds) {
        return holds.lastReference().map(at -> at.plus(referenceRefresh)).orElse(Instant.MIN);
    }

    /** Whether a reference of normal is due and the application calm enough to record it. Formats only to log. */
    private boolean referenceDue(OptionalDouble average, Optional<SaturationReading> hottest, Activity activity,
            Holds holds, Instant now) {
        if (!referenceOn || activity == Activity.REFERENCE_RECORDING) {
            return false;
        }
        Instant due = referenceDueAt(holds);
        if (now.isBefore(due)) {
            log.debug("Reference of normal recorded at {}: the next is due at {}", holds.lastReference().orElse(null),
                    due);
            return false;
        }
        String notNow = held(holds, now);
        if (notNow == null) {
            notNow = unrest(average, hottest, activity == Activity.RISING);
        }
        if (notNow == null && idle(average)) {
            notNow = "the application is idle: a reference would hold fewer than " + MIN_REFERENCE_SAMPLES
                    + " samples";
        }
        if (notNow != null) {
            log.debug("A reference of normal is due, not recorded now: {}", notNow);
            return false;
        }
        log.debug("Calm and a reference of normal is due: recording one for {} once calm long enough",
                referenceDuration);
        return true;
    }

    /** Why a due reference is held back at {@code now} (the grace, a retry pending), or null. */
    private static String held(Holds holds, Instant now) {
        Optional<Instant> grace = holds.graceUntil(now);
        if (grace.isPresent()) {
            return "in start-up grace until " + grace.get();
        }
        Optional<Instant> retry = holds.referenceRetryAt(now);
        if (retry.isPresent()) {
            return "the last attempt failed or was cancelled; the next not before " + retry.get();
        }
        return null;
    }

    /**
     * Why the application is not calm, or null when it is: no baseline yet, the average above the threshold (whether
     * or not the trigger may fire), a thread pinned at a core (whether or not the saturation trigger is on), the CPU
     * rising above its normal. What a reference needs to start, and to go on recording.
     */
    String unrest(OptionalDouble average, Optional<SaturationReading> hottest, boolean rising) {
        if (average.isEmpty()) {
            return "no baseline yet";
        }
        if (average.getAsDouble() > thresholdPercent) {
            return "the CPU average " + String.format("%.1f", average.getAsDouble()) + "% is above the threshold";
        }
        if (hottest.isPresent() && hottest.get().saturated()) {
            return "thread '" + hottest.get().thread() + "' is pinned at a core";
        }
        if (rising) {
            return "the CPU is rising above its normal";
        }
        return null;
    }

    /** Whether the CPU may trigger at {@code now}: enabled, past the start-up grace and any cooldown. */
    private boolean triggerOn(Holds holds, Instant now) {
        if (!enabled) {
            log.debug("CPU trigger disabled (profiler.cpu.enabled=false); not checking CPU");
            return false;
        }
        Optional<Instant> graceUntil = holds.graceUntil(now);
        if (graceUntil.isPresent()) {
            log.debug("In start-up grace until {}; not checking CPU", graceUntil.get());
            return false;
        }
        Optional<Instant> cooldownUntil = holds.cooldownUntil(now);
        if (cooldownUntil.isPresent()) {
            if (log.isDebugEnabled()) {
                log.debug("In cooldown until {} ({} left); not checking CPU", cooldownUntil.get(),
                        Duration.between(now, cooldownUntil.get()));
            }
            return false;
        }
        return true;
    }

    private boolean cpuAboveThreshold(OptionalDouble average) {
        if (average.isEmpty()) {
            log.debug("Getting current CPU usage: no baseline yet (first rolling interval not complete)");
            return false;
        }
        double value = average.getAsDouble();
        boolean debug = log.isDebugEnabled(); // formatting costs more than the whole check: only when it is shown
        if (debug) {
            log.debug("Getting current CPU usage: {}", String.format("%.1f", value));
        }
        if (value > thresholdPercent) {
            log.info("CPU average {}% is above the threshold {}%: starting a CPU-triggered profiling session for {}",
                    String.format("%.1f", value), String.format("%.1f", thresholdPercent),
                    duration);
            return true;
        }
        if (debug) {
            log.debug("CPU average {}% is not above the threshold {}%: not profiling", String.format("%.1f", value),
                    String.format("%.1f", thresholdPercent));
        }
        return false;
    }

    /** Whether one thread has been pinned for a whole window. Formats nothing unless it logs. */
    private boolean threadSaturated(Optional<SaturationReading> hottest) {
        if (!saturationOn) {
            return false;
        }
        if (hottest.isEmpty()) {
            log.debug("Saturation: no application thread was active at the latest tick; not profiling");
            return false;
        }
        SaturationReading r = hottest.get();
        if (r.saturated()) {
            log.info("Thread '{}' used {}% of one core over {} (threshold {}%, for {}): starting a "
                    + "SATURATION-triggered profiling session for {}", r.thread(), String.format("%.1f",
                    r.percentOfCore()), saturationWindow, String.format("%.1f", saturationPercent),
                    r.aboveFor(), duration);
            return true;
        }
        if (log.isDebugEnabled()) {
            log.debug("Saturation: hottest thread '{}' at {}% of one core over {} is not at the threshold {}% for a "
                    + "whole window: not profiling", r.thread(), String.format("%.1f", r.percentOfCore()),
                    saturationWindow, String.format("%.1f", saturationPercent));
        }
        return false;
    }

    private boolean pinned(Optional<SaturationReading> hottest) {
        return saturationOn && hottest.isPresent() && hottest.get().saturated();
    }
}
