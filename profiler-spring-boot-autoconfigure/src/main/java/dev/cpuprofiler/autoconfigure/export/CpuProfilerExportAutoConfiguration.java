package dev.cpuprofiler.autoconfigure.export;

import dev.cpuprofiler.autoconfigure.CpuProfilerAutoConfiguration;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.InvalidOptionException;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Pushes each stored profile to Pyroscope ({@code profiler.cpu.export.pyroscope.url}) and/or an OTLP collector
 * ({@code profiler.cpu.export.otlp.endpoint}, experimental). One
 * {@link ProfileExporter} (one queue, one thread) serves every target. Nothing is created when neither is set.
 */
@AutoConfiguration(after = CpuProfilerAutoConfiguration.class)
@ConditionalOnBean(CpuProfiler.class)
@Conditional(CpuProfilerExportAutoConfiguration.OnExportTarget.class)
@EnableConfigurationProperties(ExportProperties.class)
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
    ProfileBody cpuProfilerPyroscopeBody(ExportProperties properties) {
        String format = ExportSettings.pyroscopeFormat(properties.getPyroscope().getFormat());
        return JfrBody.FORMAT.equals(format) ? new JfrBody() : new PprofBody();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "profiler.cpu.export.pyroscope", name = "url")
    PyroscopeTarget cpuProfilerPyroscopeTarget(ExportProperties properties, ProfileBody body,
            Environment environment) {
        ExportProperties.Pyroscope p = properties.getPyroscope();
        ExportSettings.pyroscopeFormat(p.getFormat());
        return new PyroscopeTarget(ExportSettings.baseUrl("pyroscope.url", p.getUrl()),
                ExportSettings.applicationName(p.getApplicationName(),
                        environment.getProperty("spring.application.name")),
                ExportSettings.pyroscopeLabels(p.getLabels()), body,
                ExportSettings.positive("timeout", properties.getTimeout()), authorization(p), p.getTenantId());
    }

    private static String authorization(ExportProperties.Pyroscope p) {
        boolean basic = hasText(p.getBasicAuthUser()) || hasText(p.getBasicAuthPassword());
        if (basic && hasText(p.getBearerToken())) {
            throw new InvalidOptionException(ExportSettings.PREFIX + "pyroscope.bearer-token", "(set)",
                    "set either a bearer token or basic-auth-user and basic-auth-password, not both");
        }
        if (basic) {
            if (!hasText(p.getBasicAuthUser()) || !hasText(p.getBasicAuthPassword())) {
                String missing = hasText(p.getBasicAuthUser()) ? "basic-auth-password" : "basic-auth-user";
                throw new InvalidOptionException(ExportSettings.PREFIX + "pyroscope." + missing, "",
                        "basic authentication needs both basic-auth-user and basic-auth-password");
            }
            return PyroscopeTarget.basicAuth(p.getBasicAuthUser(), p.getBasicAuthPassword());
        }
        return hasText(p.getBearerToken()) ? PyroscopeTarget.bearer(p.getBearerToken().trim()) : null;
    }

    private static boolean hasText(String s) {
        return s != null && !s.isBlank();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    ProfileExporter cpuProfilerExporter(CpuProfiler cpuProfiler, ObjectProvider<ExportTarget> targets,
            ExportProperties properties) {
        // Never follow a redirect: the Authorization and tenant headers, and the profile, would go along to a host
        // nobody configured (ProfileExporter reports the 3xx as a failure naming where it pointed).
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(ExportSettings.positive("connect-timeout", properties.getConnectTimeout()))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        return new ProfileExporter(cpuProfiler, targets.orderedStream().toList(), client,
                new ExportRetry(MAX_RETRIES, INITIAL_BACKOFF, MAX_BACKOFF),
                ExportSettings.queueCapacity(properties.getQueueCapacity()), DRAIN_TIMEOUT, Thread::new,
                Clock.systemUTC());
    }

    /** OTLP (experimental). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "profiler.cpu.export.otlp", name = "endpoint")
    static class OtlpConfiguration {

        @Bean
        @ConditionalOnMissingBean
        OtlpTarget cpuProfilerOtlpTarget(ExportProperties properties, Environment environment) {
            ExportProperties.Otlp o = properties.getOtlp();
            return new OtlpTarget(ExportSettings.baseUrl("otlp.endpoint", o.getEndpoint()),
                    ExportSettings.applicationName(o.getServiceName(),
                            environment.getProperty("spring.application.name")),
                    o.getResourceAttributes(), o.getHeaders(),
                    ExportSettings.positive("timeout", properties.getTimeout()));
        }
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
