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
 * @param samples samples held now
 * @param footprintBytes approximate heap the ring holds
 * @param reason why it waits or cannot record; null otherwise
 */
public record LookbackStatus(LookbackState state, Duration window, Duration samplingPeriod, Instant coveredFrom,
        long samples, long footprintBytes, String reason) {

    static final LookbackStatus OFF = new LookbackStatus(LookbackState.OFF, Duration.ZERO, Duration.ZERO, null, 0, 0,
            null);
}
