package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerBarePostAdvisor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpoint;
import dev.cpuprofiler.autoconfigure.export.ProfileExporter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code cpuprofiler} actuator endpoint, when the actuator is present and the endpoint is available; the status
 * page's headers are {@link CpuProfilerEndpointManagementContextConfiguration}'s, in the context that serves it.
 */
@AutoConfiguration(after = CpuProfilerAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(CpuProfiler.class)
@ConditionalOnAvailableEndpoint(CpuProfilerEndpoint.class)
public class CpuProfilerEndpointAutoConfiguration {

    private static final EndpointId ENDPOINT_ID = EndpointId.of(CpuProfilerEndpoint.ID);

    /**
     * The endpoint; the status page offers its button when the write operation is reachable: the access Actuator
     * resolves ({@code management.endpoint.cpuprofiler.access}, capped by {@code max-permitted}) is
     * {@code unrestricted}, asked each time the page is drawn.
     */
    @Bean
    @ConditionalOnMissingBean
    CpuProfilerEndpoint cpuProfilerEndpoint(CpuProfiler cpuProfiler, ObjectProvider<ProfileExporter> exporter,
            ObjectProvider<EndpointAccessResolver> access) {
        return new CpuProfilerEndpoint(cpuProfiler, exporter::getIfAvailable, () -> {
            EndpointAccessResolver resolver = access.getIfAvailable();
            return resolver != null && resolver.accessFor(ENDPOINT_ID, Access.READ_ONLY) == Access.UNRESTRICTED;
        });
    }

    @Bean
    @ConditionalOnMissingBean
    CpuProfilerBarePostAdvisor cpuProfilerBarePostAdvisor(ObjectProvider<CpuProfilerEndpoint> endpoint) {
        return new CpuProfilerBarePostAdvisor(endpoint);
    }
}
