package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfiler;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The profiler's meters, when Micrometer is on the classpath; Spring Boot binds them to every registry. */
@AutoConfiguration(after = CpuProfilerAutoConfiguration.class)
@ConditionalOnClass(MeterBinder.class)
@ConditionalOnBean(CpuProfiler.class)
public class CpuProfilerMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CpuProfilerMeterBinder cpuProfilerMeterBinder(CpuProfiler cpuProfiler) {
        return new CpuProfilerMeterBinder(cpuProfiler);
    }
}
