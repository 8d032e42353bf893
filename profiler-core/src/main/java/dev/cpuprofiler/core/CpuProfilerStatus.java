package dev.cpuprofiler.core;

import dev.cpuprofiler.session.Profile;
import dev.cpuprofiler.trigger.TriggerState;

/**
 * Everything the status endpoint shows, taken at one moment. {@code session} is null when none runs,
 * {@code latestProfile} before the first profile.
 */
public record CpuProfilerStatus(TriggerState state, CpuStatus cpu, TriggerStatus trigger, SessionInfo session,
        Profile latestProfile) {
}
