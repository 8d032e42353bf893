package dev.cpuprofiler.autoconfigure.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * On a test class: the profiler runs as in production. Without it, a Spring test context ({@code @SpringBootTest}, a
 * test slice) keeps the profiler quiet: it records nothing by itself (no CPU, saturation or reference profile), writes
 * nothing to {@code profiler.cpu.output-directory} and pushes nothing, while the endpoint and on-demand profiles work,
 * so a user's suite neither pages anyone nor fills a disk nor pushes from CI. Like Spring Boot's
 * {@code @AutoConfigureMetrics}, it also imports the profiler's auto-configuration into a test slice.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
public @interface AutoConfigureCpuProfiler {

    /**
     * Whether the profiler stays as quiet as in any other test (the endpoint and on-demand profiles only): true suits a
     * test slice that needs the endpoint and nothing more.
     */
    boolean quiet() default false;
}
