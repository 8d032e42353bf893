package dev.cpuprofiler.core;

import dev.cpuprofiler.lookback.LookbackStatus;
import dev.cpuprofiler.session.Profile;
import dev.cpuprofiler.threads.ThreadCpu;
import dev.cpuprofiler.trigger.TriggerState;
import java.util.List;

/**
 * Everything the status endpoint shows, taken at one moment. {@code session} is null when none runs,
 * {@code latestProfile} before the first profile; {@code threads} are the top threads by recent CPU;
 * {@code lookback} says what the look-back does (state {@code OFF} when it is switched off); {@code disk} the free
 * space where it writes.
 */
public record CpuProfilerStatus(TriggerState state, CpuStatus cpu, TriggerStatus trigger, SessionInfo session,
        Profile latestProfile, List<ThreadCpu> threads, LookbackStatus lookback, DiskStatus disk) {
}
