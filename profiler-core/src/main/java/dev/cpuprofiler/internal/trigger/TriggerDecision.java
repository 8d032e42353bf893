package dev.cpuprofiler.internal.trigger;

import dev.cpuprofiler.SessionTrigger;
import dev.cpuprofiler.internal.cpu.DebugLevel;
import dev.cpuprofiler.internal.threads.SaturationReading;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether to start a profile now, and which: the average, the hottest thread's reading and the {@link Holds} in, a
 * trigger or none out; no lock, no thread, no state of its own. A CPU-triggered profile when the average is strictly
 * above the threshold; else, with the saturation trigger on, a SATURATION one when one application thread has been
 * pinned at or above its threshold of one core over its window ({@link SaturationReading}), however low the CPU% is.
 * The CPU keeps precedence when both hold. Nothing while the trigger is disabled, in the start-up grace or in a
 * cooldown. Whether a session runs, and the shutdown, are the {@link SessionCoordinator}'s: it asks only with its slot
 * free.
 *
 * <p>It says what it saw and why: at DEBUG on every poll, at INFO when it triggers.
 */
final class TriggerDecision {

    private static final Logger log = LoggerFactory.getLogger(TriggerDecision.class);

    private final TriggerSettings settings;
    private final SaturationSettings saturation;
    private final DebugLevel debug = new DebugLevel(log);

    TriggerDecision(TriggerSettings settings, SaturationSettings saturation) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.saturation = Objects.requireNonNull(saturation, "saturation");
    }

    /**
     * Whether nothing could trigger, seen without the holds, the clock or a log call: the average is not above the
     * threshold and no thread is pinned. The common poll of a monitored application, and on a calm one most of an idle
     * tick's cost when it took the whole way interpreted (about 100 µs). Never at DEBUG, so that every poll says what
     * it saw. Called on one thread, the poller's.
     */
    boolean nothingToDecide(OptionalDouble average, Optional<SaturationReading> hottest) {
        return !debug.on() && !(average.isPresent() && average.getAsDouble() > settings.thresholdPercent())
                && !pinned(hottest);
    }

    /** The trigger of the profile to start at {@code now}, or empty. */
    Optional<SessionTrigger> decide(OptionalDouble average, Optional<SaturationReading> hottest, Holds holds,
            Instant now) {
        if (!triggerOn(holds, now)) {
            return Optional.empty();
        }
        if (cpuAboveThreshold(average)) {
            return Optional.of(SessionTrigger.CPU);
        }
        return threadSaturated(hottest) ? Optional.of(SessionTrigger.SATURATION) : Optional.empty();
    }

    /** Whether the CPU may trigger at {@code now}: enabled, past the start-up grace and any cooldown. */
    private boolean triggerOn(Holds holds, Instant now) {
        if (!settings.enabled()) {
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
        if (value > settings.thresholdPercent()) {
            log.info("CPU average {}% is above the threshold {}%: starting a CPU-triggered profiling session for {}",
                    String.format("%.1f", value), String.format("%.1f", settings.thresholdPercent()),
                    settings.duration());
            return true;
        }
        if (debug) {
            log.debug("CPU average {}% is not above the threshold {}%: not profiling", String.format("%.1f", value),
                    String.format("%.1f", settings.thresholdPercent()));
        }
        return false;
    }

    /** Whether one thread has been pinned for a whole window. Formats nothing unless it logs. */
    private boolean threadSaturated(Optional<SaturationReading> hottest) {
        if (!saturation.enabled()) {
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
                    r.percentOfCore()), saturation.window(), String.format("%.1f", saturation.thresholdPercent()),
                    r.aboveFor(), settings.duration());
            return true;
        }
        if (log.isDebugEnabled()) {
            log.debug("Saturation: hottest thread '{}' at {}% of one core over {} is not at the threshold {}% for a "
                    + "whole window: not profiling", r.thread(), String.format("%.1f", r.percentOfCore()),
                    saturation.window(), String.format("%.1f", saturation.thresholdPercent()));
        }
        return false;
    }

    private boolean pinned(Optional<SaturationReading> hottest) {
        return saturation.enabled() && hottest.isPresent() && hottest.get().saturated();
    }
}
