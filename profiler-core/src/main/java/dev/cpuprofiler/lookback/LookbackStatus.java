package dev.cpuprofiler.lookback;

import java.time.Duration;
import java.time.Instant;

/**
 * The look-back now, for the endpoint's status.
 *
 * @param state what it is doing
 * @param window how far back it reaches
 * @param samplingPeriod the period its samples come at now
 * @param coveredFrom the earliest time a sample it holds can have; null unless armed
 * @param armsFrom the earliest time it may arm (the start-up grace's end, or one window before a cooldown ends);
 *     null when nothing holds it back
 * @param samples samples held now
 * @param footprintBytes approximate heap the ring holds
 * @param reason why it is idle, waits or cannot record; null otherwise
 * @param source what it samples, e.g. {@code jdk.ExecutionSample}
 * @param armingPercent the CPU% the recent average must exceed to arm it; null when it is always armed
 * @param recentCpuPercent the recent CPU% it compares with that level; null until there are enough samples
 * @param armedSince when it armed; null unless armed
 */
public record LookbackStatus(LookbackState state, Duration window, Duration samplingPeriod, Instant coveredFrom,
        Instant armsFrom, long samples, long footprintBytes, String reason, String source, Double armingPercent,
        Double recentCpuPercent, Instant armedSince) {

    static final LookbackStatus OFF = new LookbackStatus(LookbackState.OFF, Duration.ZERO, Duration.ZERO, null, null,
            0, 0, null, null, null, null, null);
}
