package dev.cpuprofiler.internal.baseline;

import java.time.Duration;
import java.util.Objects;

/**
 * How the rolling baseline keeps history.
 *
 * @param historySize how much history to keep; at least one slot
 * @param slotInterval the length of one slot, each the true average over it; positive
 * @param averageWindow how much recent history {@link RollingBaseline#average()} covers (rounded to whole slots,
 *     at most the history)
 * @param samplingInterval how often samples arrive; a slot closes at the first sample within half of this of its
 *     nominal end, so scheduling jitter does not stretch every slot by one tick
 */
public record BaselineSettings(Duration historySize, Duration slotInterval, Duration averageWindow,
        Duration samplingInterval) {

    public BaselineSettings {
        Objects.requireNonNull(historySize, "historySize");
        Objects.requireNonNull(slotInterval, "slotInterval");
        Objects.requireNonNull(averageWindow, "averageWindow");
        Objects.requireNonNull(samplingInterval, "samplingInterval");
        if (slotInterval.isNegative() || slotInterval.isZero() || historySize.compareTo(slotInterval) < 0) {
            throw new IllegalArgumentException("history size must hold at least one positive interval, was "
                    + historySize + " of " + slotInterval);
        }
        if (averageWindow.isNegative() || samplingInterval.isNegative() || samplingInterval.isZero()) {
            throw new IllegalArgumentException("averageWindow must not be negative and samplingInterval must be "
                    + "positive, were " + averageWindow + " and " + samplingInterval);
        }
    }
}
