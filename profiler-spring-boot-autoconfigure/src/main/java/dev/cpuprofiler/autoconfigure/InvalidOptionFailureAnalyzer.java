package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.InvalidOptionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns an out-of-range profiler setting into Spring Boot's "APPLICATION FAILED TO START" report. */
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
