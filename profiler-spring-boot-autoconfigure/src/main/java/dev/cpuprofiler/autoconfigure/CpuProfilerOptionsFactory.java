package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.core.CpuProfilerOptions;
import dev.cpuprofiler.core.InvalidOptionException;
import java.util.List;

/**
 * Bound properties, then customizers in order, then validation. When the result is invalid the error says
 * whether the bad value came from {@code application.yml} or from a customizer, because a user hunting for
 * {@code profiler.cpu.threshold=150} in their YAML would otherwise look in the wrong place.
 */
final class CpuProfilerOptionsFactory {

    private CpuProfilerOptionsFactory() {
    }

    static CpuProfilerOptions create(CpuProfilerProperties.Cpu properties, List<CpuProfilerCustomizer> customizers) {
        CpuProfilerOptions bound = properties.toOptions();
        CpuProfilerOptions options = bound.copy();
        for (CpuProfilerCustomizer customizer : customizers) {
            customizer.customize(options);
        }
        try {
            return options.validate();
        } catch (InvalidOptionException e) {
            if (customizers.isEmpty() || sameFailure(bound, e)) {
                throw e;
            }
            throw new InvalidOptionException(e.property(), e.value(),
                    e.allowed() + " (the value was set by a CpuProfilerCustomizer bean)");
        }
    }

    private static boolean sameFailure(CpuProfilerOptions bound, InvalidOptionException e) {
        try {
            bound.validate();
            return false;
        } catch (InvalidOptionException boundFailure) {
            return boundFailure.property().equals(e.property()) && boundFailure.value().equals(e.value());
        }
    }
}
