package dev.cpuprofiler.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The recent CPU% for a chart, in wall-clock time: the sampler's last few minutes of readings, and the rolling
 * baseline's slots (each the true average over its interval, as the trigger sees it).
 *
 * @param at when it was read
 * @param samplingInterval how often the sampler reads
 * @param samples the sampler's readings, oldest first
 * @param slotInterval the length of one baseline slot
 * @param slots the baseline's completed slots, oldest first
 */
public record CpuHistory(Instant at, Duration samplingInterval, List<Point> samples, Duration slotInterval,
        List<Slot> slots) {

    /** One sampler reading: the CPU% over the interval that ended {@code at}. */
    public record Point(Instant at, double percent) {
    }

    /** One baseline slot: the average CPU% from {@code start} to {@code end}. */
    public record Slot(Instant start, Instant end, double percent) {
    }
}
