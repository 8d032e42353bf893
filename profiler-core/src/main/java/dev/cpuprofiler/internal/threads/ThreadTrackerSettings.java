package dev.cpuprofiler.internal.threads;

import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;

/**
 * How {@link ThreadCpuTracker} reads threads.
 *
 * @param window the span a thread's CPU% is averaged over (longer for idle threads read rarely)
 * @param maxBackOffTicks the longest wait, in ticks, between two reads of an idle thread (how late a thread that
 *        wakes up can be noticed)
 * @param listEveryTicks the longest wait, in ticks, between two listings of the live threads (to find new ones and
 *        drop ended ones); they are also listed whenever the JVM's thread counters change
 *        ({@code getAllThreadIds()}: about 15 µs with 500 threads compiled, but most of an idle tick interpreted)
 * @param nameRefreshTicks how often the names of active threads are read again (threads may rename themselves);
 *        a new thread's name is read once when it is found
 * @param saturationWindow the span the hottest thread's CPU is averaged over for the saturation trigger
 * @param saturationThresholdPercent the percent of one core at or above which that average counts as saturated
 */
public record ThreadTrackerSettings(Duration window, int maxBackOffTicks, int listEveryTicks, int nameRefreshTicks,
        Duration saturationWindow, double saturationThresholdPercent) {

    /**
     * 10 s window, back-off up to 32 ticks, list threads when the counters change and at least every 10 ticks (an
     * ended thread that nothing else reveals is gone from the table within 10 s), refresh active names every 60 ticks;
     * saturation as these options set it.
     */
    public static ThreadTrackerSettings of(CpuProfilerOptions o) {
        return new ThreadTrackerSettings(Duration.ofSeconds(10), 32, 10, 60, o.effectiveSaturationWindow(),
                o.getSaturation().getThreshold());
    }

    /** The span a thread's reads are kept for: the longer of the two windows. */
    long keepNanos() {
        return Math.max(window.toNanos(), saturationWindow.toNanos());
    }
}
