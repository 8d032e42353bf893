package dev.cpuprofiler.internal.threads;

import java.time.Duration;

/**
 * The hottest application thread at the latest tick, as the saturation trigger sees it: its CPU averaged over the
 * saturation window, in percent of one core. A thread pinned at or above the threshold for a whole window wins over a
 * hotter one seen for less than the window.
 *
 * @param threadId its {@code Thread.getId()}, which the engines' samples carry
 * @param thread its name
 * @param percentOfCore its CPU over the window (or over its life so far, when shorter), percent of one core
 * @param aboveFor how long its average over a whole window has stayed at or above the threshold; null when it is
 *        not (below it, or seen for less than the window: a younger thread never triggers)
 */
public record SaturationReading(long threadId, String thread, double percentOfCore, Duration aboveFor) {

    /** Whether it stands at or above the threshold over a whole window: what triggers a SATURATION profile. */
    public boolean saturated() {
        return aboveFor != null;
    }
}
