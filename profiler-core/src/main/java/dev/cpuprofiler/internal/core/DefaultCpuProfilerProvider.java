package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerProvider;

/** profiler-core's {@link CpuProfilerProvider}: the pipeline, with production defaults for what the API does not set. */
public final class DefaultCpuProfilerProvider implements CpuProfilerProvider {

    @Override
    public CpuProfiler build(CpuProfiler.Builder settings) {
        DefaultCpuProfiler.Builder b = DefaultCpuProfiler.builder(settings.options()).fsRoot(settings.fsRoot())
                .clock(settings.clock()).threadFactory(settings.threadFactory())
                .virtualThreads(settings.virtualThreads());
        if (settings.workDirectory() != null) {
            b.workDirectory(settings.workDirectory());
        }
        return b.build();
    }
}
