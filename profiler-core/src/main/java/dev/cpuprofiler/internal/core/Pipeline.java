package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfiler;

import dev.cpuprofiler.CpuProfilerOptions;

import dev.cpuprofiler.internal.baseline.RollingBaseline;
import dev.cpuprofiler.internal.cpu.CpuSampler;
import dev.cpuprofiler.internal.cpu.RecentCpuSamples;
import dev.cpuprofiler.internal.cpu.CpuSourceSelector;
import dev.cpuprofiler.internal.cpu.Ticker;
import dev.cpuprofiler.internal.engine.DebugNonSafepointsCheck;
import dev.cpuprofiler.internal.engine.DiskSpaceGuard;
import dev.cpuprofiler.internal.engine.JfrPeriodicTaskKeeper;
import dev.cpuprofiler.internal.engine.EngineSelector;
import dev.cpuprofiler.internal.engine.WorkDirectory;
import dev.cpuprofiler.internal.lookback.Lookback;
import dev.cpuprofiler.internal.requests.RequestTimeline;
import dev.cpuprofiler.internal.session.ProfileStore;
import dev.cpuprofiler.internal.session.ProfilingSessions;
import dev.cpuprofiler.internal.threads.ThreadCpuTracker;
import dev.cpuprofiler.internal.trigger.SessionCoordinator;
import java.time.Clock;
import java.util.concurrent.ThreadFactory;

/**
 * The parts {@link PipelineAssembly} built, held by the running {@link CpuProfiler}.
 *
 * @param threads per-thread CPU time, or null when this JVM cannot measure it
 * @param jfrKeeper the recording that keeps JFR's periodic thread asleep on Java 17 to 20, closed last
 */
record Pipeline(CpuProfilerOptions options, Clock clock, Ticker ticker, ThreadFactory threadFactory,
        CpuSourceSelector.Selected cpuSource, CpuSampler sampler, RollingBaseline baseline, RecentCpuSamples recentCpu,
        ThreadCpuTracker threads, ProfileStore profiles,
        WorkDirectory workDirectory, DiskSpaceGuard diskSpace, JfrPeriodicTaskKeeper jfrKeeper, EngineSelector engines,
        ProfilingSessions sessions,
        Lookback lookback, SessionCoordinator coordinator, DebugNonSafepointsCheck debugNonSafepoints,
        RequestTimeline requests) {
}
