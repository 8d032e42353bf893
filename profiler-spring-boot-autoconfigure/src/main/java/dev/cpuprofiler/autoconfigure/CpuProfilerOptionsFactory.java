package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.InvalidOptionException;
import java.util.List;

/**
 * Bound properties, then customizers in order, then validation. The bound properties are checked first, on their own:
 * a bad {@code profiler.cpu.threshold=150} fails start-up naming it even when a customizer sets the threshold
 * afterwards (a value that is ignored is a mistake the user should hear of). A bad value that only the customizers
 * produced says so, because a user hunting for it in their YAML would otherwise look in the wrong place.
 */
final class CpuProfilerOptionsFactory {

    private CpuProfilerOptionsFactory() {
    }

    static CpuProfilerOptions create(CpuProfilerProperties properties, List<CpuProfilerCustomizer> customizers) {
        CpuProfilerOptions options = properties.toOptions().validate();
        if (customizers.isEmpty()) {
            return options;
        }
        for (CpuProfilerCustomizer customizer : customizers) {
            customizer.customize(options);
        }
        try {
            return options.validate();
        } catch (InvalidOptionException e) {
            throw new InvalidOptionException(e.property(), e.value(),
                    e.allowed() + " (the value was set by a CpuProfilerCustomizer bean)");
        }
    }
}
