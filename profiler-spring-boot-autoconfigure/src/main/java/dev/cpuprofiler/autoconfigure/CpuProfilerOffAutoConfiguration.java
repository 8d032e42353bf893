package dev.cpuprofiler.autoconfigure;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;

/**
 * {@code profiler.enabled=false}: nothing of the profiler is created, and one INFO line says so, so that a user who
 * looks for the endpoint or the meters learns why they are missing.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "profiler.enabled", havingValue = false)
public class CpuProfilerOffAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(CpuProfilerOffAutoConfiguration.class);

    @Bean
    static SmartInitializingSingleton cpuProfilerOffNotice() {
        return () -> log.info("cpuprofiler is off (profiler.enabled=false): no CPU monitoring, no profiles, no "
                + "/actuator/cpuprofiler endpoint and no profiler.* meters");
    }
}
