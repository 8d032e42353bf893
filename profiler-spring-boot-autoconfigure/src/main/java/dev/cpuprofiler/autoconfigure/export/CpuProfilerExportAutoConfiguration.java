package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.autoconfigure.CpuProfilerAutoConfiguration;
import dev.cpuprofiler.autoconfigure.CpuProfilerProperties;
import dev.cpuprofiler.CpuProfiler;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Pushes each stored profile to Pyroscope ({@code profiler.cpu.export.pyroscope.url}) and/or an OTLP collector
 * ({@code profiler.cpu.export.otlp.endpoint}, experimental). One
 * {@link ProfileExporter} (one queue, one thread) serves every target. Nothing is created when neither is set, or
 * with {@code profiler.cpu.export.enabled=false}.
 */
@AutoConfiguration(after = CpuProfilerAutoConfiguration.class)
@ConditionalOnBean(CpuProfiler.class)
@ConditionalOnBooleanProperty(name = "profiler.cpu.export.enabled", matchIfMissing = true)
@Conditional(CpuProfilerExportAutoConfiguration.OnExportTarget.class)
public class CpuProfilerExportAutoConfiguration {

    /** Retries after the first attempt; with the backoff below a dead target holds a profile about 7 s. */
    static final int MAX_RETRIES = 3;
    static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
    /** The longest wait between attempts, whatever a target's Retry-After asks. */
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** How long closing the context waits for queued profiles to go out. */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "profiler.cpu.export.pyroscope", name = "url")
    ProfileBody cpuProfilerPyroscopeBody(CpuProfilerProperties properties) {
        return JfrBody.FORMAT.equals(export(properties).pyroscope().format()) ? new JfrBody() : new PprofBody();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "profiler.cpu.export.pyroscope", name = "url")
    PyroscopeTarget cpuProfilerPyroscopeTarget(CpuProfilerProperties properties, ProfileBody body,
            Environment environment) {
        ExportProperties export = export(properties);
        ExportProperties.Pyroscope p = export.pyroscope();
        return new PyroscopeTarget(URI.create(p.url()), name(p.applicationName(), environment), p.labels(), body,
                export.timeout(), authorization(p), p.tenantId());
    }

    /** Basic when a user is set (the properties make sure the password is too), else a bearer token, else none. */
    private static String authorization(ExportProperties.Pyroscope p) {
        return ExportProperties.hasText(p.basicAuthUser()) ? PyroscopeTarget.basicAuth(p.basicAuthUser(),
                p.basicAuthPassword()) : ExportProperties.hasText(p.bearerToken())
                        ? PyroscopeTarget.bearer(p.bearerToken().trim()) : null;
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    ProfileExporter cpuProfilerExporter(CpuProfiler cpuProfiler, ObjectProvider<ExportTarget> targets,
            CpuProfilerProperties properties) {
        // Never follows a redirect: the Authorization and tenant headers, and the profile, would go along to a host
        // nobody configured (ProfileExporter reports the 3xx as a failure naming where it pointed). The exporter
        // closes it, with its threads and connections, when the context closes.
        ExportHttpClient client = ExportHttpClient.create(export(properties).connectTimeout());
        try {
            return new ProfileExporter(cpuProfiler, targets.orderedStream().toList(), client,
                    new ExportRetry(MAX_RETRIES, INITIAL_BACKOFF, MAX_BACKOFF), export(properties).queueCapacity(),
                    DRAIN_TIMEOUT, Thread::new, Clock.systemUTC());
        } catch (RuntimeException | Error e) {
            client.close();
            throw e;
        }
    }

    /** OTLP (experimental). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "profiler.cpu.export.otlp", name = "endpoint")
    static class OtlpConfiguration {

        @Bean
        @ConditionalOnMissingBean
        OtlpTarget cpuProfilerOtlpTarget(CpuProfilerProperties properties, Environment environment) {
            ExportProperties export = export(properties);
            ExportProperties.Otlp o = export.otlp();
            return new OtlpTarget(URI.create(o.endpoint()), name(o.serviceName(), environment),
                    o.resourceAttributes(), o.headers(), export.timeout());
        }
    }

    private static ExportProperties export(CpuProfilerProperties properties) {
        return properties.cpu().export();
    }

    /** The configured name, else {@code spring.application.name}, else {@code application}. */
    private static String name(String configured, Environment environment) {
        String name = configured != null && !configured.isBlank() ? configured
                : environment.getProperty("spring.application.name", "");
        return name.isBlank() ? "application" : name.trim();
    }

    /** The meter, when Micrometer is on the classpath. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterBinder.class)
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean
        ExportMeterBinder cpuProfilerExportMeterBinder(ProfileExporter exporter) {
            return new ExportMeterBinder(exporter);
        }
    }

    /** A Pyroscope URL or an OTLP endpoint is set. */
    static class OnExportTarget extends AnyNestedCondition {

        OnExportTarget() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(prefix = "profiler.cpu.export.pyroscope", name = "url")
        static class Pyroscope {
        }

        @ConditionalOnProperty(prefix = "profiler.cpu.export.otlp", name = "endpoint")
        static class Otlp {
        }
    }
}
