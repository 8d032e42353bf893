package dev.cpuprofiler.core;

import dev.cpuprofiler.baseline.RollingBaseline;
import dev.cpuprofiler.cpu.CpuSampler;
import dev.cpuprofiler.cpu.RecentCpuSamples;
import dev.cpuprofiler.cpu.SelectedCpuSource;
import dev.cpuprofiler.cpu.Ticker;
import dev.cpuprofiler.engine.DebugNonSafepointsCheck;
import dev.cpuprofiler.engine.DiskSpaceGuard;
import dev.cpuprofiler.engine.EngineSelector;
import dev.cpuprofiler.engine.WorkDirectory;
import dev.cpuprofiler.lookback.Lookback;
import dev.cpuprofiler.session.ProfileStore;
import dev.cpuprofiler.session.ProfilingSessions;
import dev.cpuprofiler.threads.ThreadCpuTracker;
import dev.cpuprofiler.trigger.CpuTriggerPolicy;
import java.time.Clock;
import java.util.concurrent.ThreadFactory;

/**
 * The parts {@link PipelineAssembly} built, held by the running {@link CpuProfiler}.
 *
 * @param threads per-thread CPU time, or null when this JVM cannot measure it
 */
record Pipeline(CpuProfilerOptions options, Clock clock, Ticker ticker, ThreadFactory threadFactory,
        SelectedCpuSource cpuSource, CpuSampler sampler, RollingBaseline baseline, RecentCpuSamples recentCpu,
        ThreadCpuTracker threads, ProfileStore profiles,
        WorkDirectory workDirectory, DiskSpaceGuard diskSpace, EngineSelector engines, ProfilingSessions sessions,
        Lookback lookback, CpuTriggerPolicy policy, DebugNonSafepointsCheck debugNonSafepoints) {
}
