package dev.cpuprofiler;

/**
 * What builds a {@link CpuProfiler} from a {@link CpuProfiler.Builder}: found with {@link java.util.ServiceLoader}, so
 * that this API refers to no implementation class and the pipeline's packages sit wholly below it. profiler-core
 * provides the one implementation ({@code META-INF/services/dev.cpuprofiler.CpuProfilerProvider}); an application
 * has no reason to provide another.
 */
public interface CpuProfilerProvider {

    /**
     * @param settings what the builder was given
     * @throws InvalidOptionException when an option is out of range, naming it
     */
    CpuProfiler build(CpuProfiler.Builder settings);
}
