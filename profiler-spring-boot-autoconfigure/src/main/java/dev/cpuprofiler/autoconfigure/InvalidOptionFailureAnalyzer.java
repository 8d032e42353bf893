package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.InvalidOptionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Turns an out-of-range profiler setting into Spring Boot's "APPLICATION FAILED TO START" report. First, so that a
 * setting refused as it is bound ({@code profiler.cpu.export.*}) is reported by its rule, not as a failure to bind.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class InvalidOptionFailureAnalyzer extends AbstractFailureAnalyzer<InvalidOptionException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidOptionException cause) {
        return new FailureAnalysis(
                "Invalid value '" + cause.value() + "' for " + cause.property() + ": " + cause.allowed() + ".",
                "Change " + cause.property() + " in your configuration (or the CpuProfilerCustomizer that sets it), "
                        + "or set profiler.enabled=false to turn the profiler off.",
                cause);
    }
}
