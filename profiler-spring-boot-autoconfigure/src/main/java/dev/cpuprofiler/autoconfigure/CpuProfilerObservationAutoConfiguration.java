package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfiler;
import io.micrometer.observation.ObservationHandler;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.server.WebFilter;

/**
 * CPU by endpoint: an {@link ObservationHandler} that tells the profiler which thread serves which request. Spring
 * Boot registers it with every {@code ObservationRegistry}; Spring MVC, WebFlux and {@code @Scheduled} observe each
 * request or run. With WebFlux, also {@link CpuProfilerRequestWebFilter}.
 */
@AutoConfiguration(after = CpuProfilerAutoConfiguration.class)
@ConditionalOnClass(ObservationHandler.class)
@ConditionalOnBean(CpuProfiler.class)
public class CpuProfilerObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CpuProfilerObservationHandler cpuProfilerObservationHandler(CpuProfiler cpuProfiler) {
        return new CpuProfilerObservationHandler(cpuProfiler.requestActivity());
    }

    /** WebFlux opens no scope on the thread that runs a request's handler: this filter does, while a profile records. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(WebFilter.class)
    static class WebFluxConfiguration {

        @Bean
        @ConditionalOnMissingBean
        CpuProfilerRequestWebFilter cpuProfilerRequestWebFilter(CpuProfilerObservationHandler handler) {
            return new CpuProfilerRequestWebFilter(handler);
        }
    }
}
