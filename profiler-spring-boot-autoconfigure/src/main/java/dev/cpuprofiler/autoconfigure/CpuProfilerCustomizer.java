package dev.cpuprofiler.autoconfigure;

import dev.cpuprofiler.CpuProfilerOptions;

/**
 * Changes the profiler's settings in code, after {@code profiler.cpu.*} are bound. Customizer beans are
 * applied in {@link org.springframework.core.annotation.Order @Order}; the result is validated like the
 * properties, so an out-of-range value fails start-up naming the setting.
 *
 * <pre>{@code
 * @Bean
 * CpuProfilerCustomizer lowerThreshold() {
 *     return options -> {
 *         options.setThreshold(60);
 *         options.setCooldown(Duration.ofMinutes(30));
 *     };
 * }
 * }</pre>
 */
@FunctionalInterface
public interface CpuProfilerCustomizer {

    void customize(CpuProfilerOptions options);
}
