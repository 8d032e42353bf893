package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The CPU-triggered profiler: options from {@code profiler.cpu.*} and {@link CpuProfilerCustomizer} beans,
 * and the {@link CpuProfiler} pipeline, started once the application is ready, its running session stopped early
 * (its profile kept) when the context stops ({@link CpuProfilerShutdown}), and closed with the context.
 * {@code profiler.enabled=false} creates none of it.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "profiler.enabled", matchIfMissing = true)
@EnableConfigurationProperties(CpuProfilerProperties.class)
public class CpuProfilerAutoConfiguration {

    /** Boot's property for how long each shutdown phase may take, and its default. */
    private static final String PHASE_TIMEOUT = "spring.lifecycle.timeout-per-shutdown-phase";
    private static final Duration DEFAULT_PHASE_TIMEOUT = Duration.ofSeconds(30);

    /**
     * {@code profiler.cpu.engine} by the documented names (docs/engines.md); an unknown one fails naming the property
     * and those names.
     */
    @Bean
    @ConfigurationPropertiesBinding
    static EngineChoiceConverter cpuProfilerEngineChoiceConverter() {
        return new EngineChoiceConverter();
    }

    @Bean
    @ConditionalOnMissingBean
    CpuProfilerOptions cpuProfilerOptions(CpuProfilerProperties properties,
            ObjectProvider<CpuProfilerCustomizer> customizers) {
        return CpuProfilerOptionsFactory.create(properties, customizers.orderedStream().toList());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    CpuProfiler cpuProfiler(CpuProfilerOptions options, Environment environment) {
        // On virtual threads, auto picks an engine that samples them, so profiles can name each sample's request.
        return CpuProfiler.builder(options).virtualThreads(Threading.VIRTUAL.isActive(environment)).build();
    }

    @Bean
    @ConditionalOnMissingBean
    CpuProfilerStarter cpuProfilerStarter(CpuProfiler cpuProfiler) {
        return new CpuProfilerStarter(cpuProfiler);
    }

    @Bean
    @ConditionalOnMissingBean
    CpuProfilerShutdown cpuProfilerShutdown(CpuProfiler cpuProfiler, Environment environment) {
        return new CpuProfilerShutdown(cpuProfiler, Binder.get(environment)
                .bind(PHASE_TIMEOUT, Duration.class).orElse(DEFAULT_PHASE_TIMEOUT));
    }
}
