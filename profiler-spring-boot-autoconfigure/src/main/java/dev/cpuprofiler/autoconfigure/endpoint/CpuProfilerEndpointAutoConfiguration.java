package dev.cpuprofiler.autoconfigure.endpoint;

import dev.cpuprofiler.autoconfigure.CpuProfilerAutoConfiguration;
import dev.cpuprofiler.core.CpuProfiler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code cpuprofiler} actuator endpoint, when the actuator is present and the endpoint is available. */
@AutoConfiguration(after = CpuProfilerAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(CpuProfiler.class)
@ConditionalOnAvailableEndpoint(CpuProfilerEndpoint.class)
public class CpuProfilerEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CpuProfilerEndpoint cpuProfilerEndpoint(CpuProfiler cpuProfiler) {
        return new CpuProfilerEndpoint(cpuProfiler);
    }

    @Bean
    @ConditionalOnMissingBean
    CpuProfilerBarePostAdvisor cpuProfilerBarePostAdvisor(ObjectProvider<CpuProfilerEndpoint> endpoint) {
        return new CpuProfilerBarePostAdvisor(endpoint);
    }
}
