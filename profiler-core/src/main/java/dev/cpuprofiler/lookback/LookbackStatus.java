package dev.cpuprofiler.lookback;

import java.time.Duration;
import java.time.Instant;

/**
 * The look-back now, for the endpoint's status.
 *
 * @param state what it is doing
 * @param window how far back it reaches
 * @param samplingPeriod the period its samples come at now
 * @param coveredFrom the earliest time a sample it holds can have; null unless recording
 * @param resumesAt when it records again after stepping aside; null unless it waits for that time
 * @param samples samples held now
 * @param footprintBytes approximate heap the ring holds
 * @param reason why it waits or cannot record; null otherwise
 */
public record LookbackStatus(LookbackState state, Duration window, Duration samplingPeriod, Instant coveredFrom,
        Instant resumesAt, long samples, long footprintBytes, String reason) {

    static final LookbackStatus OFF = new LookbackStatus(LookbackState.OFF, Duration.ZERO, Duration.ZERO, null, null,
            0, 0, null);
}
