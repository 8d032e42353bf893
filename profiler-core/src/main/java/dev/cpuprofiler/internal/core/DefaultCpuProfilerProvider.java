package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.CpuProfiler;

/** profiler-core's {@link CpuProfiler.Provider}: the pipeline, with production defaults for what the API does not set. */
public final class DefaultCpuProfilerProvider implements CpuProfiler.Provider {

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
