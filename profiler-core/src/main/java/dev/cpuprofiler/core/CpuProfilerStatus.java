package dev.cpuprofiler.core;

import dev.cpuprofiler.trigger.TriggerState;

/** Everything the status endpoint shows, taken at one moment. {@code session} is null when none runs. */
public record CpuProfilerStatus(TriggerState state, CpuStatus cpu, TriggerStatus trigger, SessionInfo session) {
}
