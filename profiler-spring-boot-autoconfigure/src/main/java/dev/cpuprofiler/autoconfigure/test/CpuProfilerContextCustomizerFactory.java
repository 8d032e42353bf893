package dev.cpuprofiler.autoconfigure.test;

import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.BeanDefinitionRegistryPostProcessor;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Keeps the profiler quiet in every Spring test context unless the test class carries
 * {@link AutoConfigureCpuProfiler}: found by Spring's TestContext framework in {@code META-INF/spring.factories}, as
 * Spring Boot's own metrics and tracing test switches are, so an application that does not test never loads it.
 * Quiet is {@link #QUIET}, ahead of every other property source when the context refreshes: the user's own test
 * properties ({@code @SpringBootTest(properties)}, {@code @TestPropertySource}, {@code @DynamicPropertySource}) do not
 * undo it, the annotation does.
 */
class CpuProfilerContextCustomizerFactory implements ContextCustomizerFactory {

    /** The name of the property source that holds {@link #QUIET}. */
    static final String SOURCE = "cpuprofiler-quiet-in-tests";

    /** What quiet means: no trigger records, no output file is written, nothing is pushed. */
    static final Map<String, Object> QUIET = Map.of(
            "profiler.cpu.enabled", "false",
            "profiler.cpu.reference.enabled", "false",
            "profiler.latency.enabled", "false",
            "profiler.cpu.output-directory", "",
            "profiler.cpu.export.enabled", "false");

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        AutoConfigureCpuProfiler annotation = TestContextAnnotationUtils.findMergedAnnotation(testClass,
                AutoConfigureCpuProfiler.class);
        return annotation == null || annotation.quiet() ? new QuietCustomizer() : null;
    }

    /** Equal to every other: contexts that differ in nothing else share Spring's context cache. */
    private static final class QuietCustomizer implements ContextCustomizer {

        private static final Logger log = LoggerFactory.getLogger(CpuProfilerContextCustomizerFactory.class);

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration merged) {
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            sources.addFirst(new MapPropertySource(SOURCE, QUIET));
            // Other customizers may add sources first after this one (@DynamicPropertySource's does): first again as
            // the refresh begins, before any condition or binding reads a property.
            context.addBeanFactoryPostProcessor(new BeanDefinitionRegistryPostProcessor() {
                @Override
                public void postProcessBeanDefinitionRegistry(BeanDefinitionRegistry registry) {
                    sources.addFirst(sources.remove(SOURCE));
                }
            });
            log.info("cpuprofiler is quiet in this test context (no profile by itself, no output files, no push; "
                    + "@AutoConfigureCpuProfiler on the test class runs it as in production): {}", QUIET);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof QuietCustomizer;
        }

        @Override
        public int hashCode() {
            return QuietCustomizer.class.hashCode();
        }
    }
}
