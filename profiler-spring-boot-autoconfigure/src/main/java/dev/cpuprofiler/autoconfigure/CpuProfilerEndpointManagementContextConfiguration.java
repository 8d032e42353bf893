package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpoint;
import dev.cpuprofiler.autoconfigure.page.StatusPageFilter;
import dev.cpuprofiler.autoconfigure.page.StatusPageHeaders;
import dev.cpuprofiler.autoconfigure.page.StatusPageWebFilter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletPath;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.server.WebFilter;

/**
 * The status page's filter, in the context that serves the endpoint: the application's, or the management server's
 * on a port of its own (where a filter of the application's context would never run). It acts on the page's paths
 * alone ({@link StatusPageHeaders}).
 */
@ManagementContextConfiguration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "profiler.enabled", matchIfMissing = true)
@ConditionalOnAvailableEndpoint(endpoint = CpuProfilerEndpoint.class, exposure = EndpointExposure.WEB)
public class CpuProfilerEndpointManagementContextConfiguration {

    private static final EndpointId ENDPOINT_ID = EndpointId.of(CpuProfilerEndpoint.ID);

    /** Spring MVC's part: the endpoint's paths are below the dispatcher servlet's. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnClass(DispatcherServletPath.class)
    static class WebMvcConfiguration {

        @Bean
        @ConditionalOnMissingBean
        StatusPageFilter cpuProfilerStatusPageFilter(ObjectProvider<PathMappedEndpoints> endpoints,
                ObjectProvider<DispatcherServletPath> servlet) {
            return new StatusPageFilter(new StatusPageHeaders(ENDPOINT_ID, endpoints, path -> {
                DispatcherServletPath dispatcher = servlet.getIfAvailable();
                return dispatcher == null ? path : dispatcher.getRelativePath(path);
            }));
        }
    }

    /** Spring WebFlux's part. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(WebFilter.class)
    static class WebFluxConfiguration {

        @Bean
        @ConditionalOnMissingBean
        StatusPageWebFilter cpuProfilerStatusPageWebFilter(ObjectProvider<PathMappedEndpoints> endpoints) {
            return new StatusPageWebFilter(new StatusPageHeaders(ENDPOINT_ID, endpoints, path -> path));
        }
    }
}
