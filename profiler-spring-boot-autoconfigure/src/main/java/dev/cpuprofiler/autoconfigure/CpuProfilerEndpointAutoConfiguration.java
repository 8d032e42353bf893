package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerBarePostAdvisor;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpoint;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpointWebFilter;
import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerMvcAdvice;
import dev.cpuprofiler.autoconfigure.endpoint.EndpointPaths;
import dev.cpuprofiler.autoconfigure.security.PageCsrfToken;
import dev.cpuprofiler.autoconfigure.security.PageCsrfTokenWebFilter;
import dev.cpuprofiler.autoconfigure.export.ProfileExporter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.server.WebFilter;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * The {@code cpuprofiler} actuator endpoint, when the actuator is present and the endpoint is available; with Spring
 * MVC or WebFlux, also what Actuator's endpoint model cannot express: the {@code Retry-After} header of a 429, the
 * reason of a 400 for a body the framework cannot read, the download's file name and the status page's
 * {@code Content-Security-Policy}.
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

    /** Spring MVC's part. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(DispatcherServlet.class)
    static class WebMvcConfiguration {

        @Bean
        @ConditionalOnMissingBean
        CpuProfilerMvcAdvice cpuProfilerMvcAdvice(ObjectProvider<CpuProfiler> cpuProfiler,
                ObjectProvider<PathMappedEndpoints> endpoints) {
            return new CpuProfilerMvcAdvice(cpuProfiler, endpoints);
        }
    }

    /** Spring WebFlux's part. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(WebFilter.class)
    static class WebFluxConfiguration {

        @Bean
        @ConditionalOnMissingBean
        CpuProfilerEndpointWebFilter cpuProfilerEndpointWebFilter(ObjectProvider<CpuProfiler> cpuProfiler,
                ObjectProvider<PathMappedEndpoints> endpoints) {
            return new CpuProfilerEndpointWebFilter(cpuProfiler, endpoints);
        }

        /** Spring Security's CSRF token for the status page's button; Spring MVC's advice above reads it itself. */
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnClass(name = PageCsrfToken.REACTIVE_ATTRIBUTE)
        PageCsrfTokenWebFilter cpuProfilerPageCsrfTokenWebFilter(ObjectProvider<PathMappedEndpoints> endpoints) {
            return new PageCsrfTokenWebFilter(new EndpointPaths(endpoints)::isEndpoint);
        }
    }
}
