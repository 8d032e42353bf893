package dev.cpuprofiler.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cpuprofiler.autoconfigure.endpoint.CpuProfilerEndpoint;
import dev.cpuprofiler.autoconfigure.page.StatusPageWebFilter;
import dev.cpuprofiler.CpuProfiler;
import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.CpuProfilerStatus;
import dev.cpuprofiler.InvalidOptionException;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

@ExtendWith(OutputCaptureExtension.class)
class CpuProfilerAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(CpuProfilerAutoConfiguration.class,
                    CpuProfilerMetricsAutoConfiguration.class, CpuProfilerEndpointAutoConfiguration.class,
                    EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class));

    // Only this test's threads: contexts other tests cached in this JVM run profiler threads of the same names.
    private final OwnThreadGroup own = new OwnThreadGroup();

    @Test
    void defaultsCreateThePipelineWithTheOriginalSettings() throws Exception {
        own.run(() -> runner.run(context -> {
            assertThat(context).hasSingleBean(CpuProfiler.class).hasSingleBean(CpuProfilerStarter.class);
            CpuProfilerOptions options = context.getBean(CpuProfilerOptions.class);
            assertThat(options.getThreshold()).isEqualTo(80);
            assertThat(options.getCooldown()).isEqualTo(Duration.ofHours(4));
            assertThat(options.getDuration()).isEqualTo(Duration.ofSeconds(30));
            assertThat(options.getEngine()).isEqualTo(EngineChoice.AUTO);
            assertThat(context.getBean(CpuProfiler.class).status().state()).isEqualTo(CpuProfilerStatus.State.MONITORING);
            // Nothing starts before the application is ready (start() starts its threads before it returns).
            assertThat(own.alive("cpuprofiler-")).isEmpty();
        }));
    }

    /** The status page's filter comes with the endpoint exposed over HTTP, Spring Security or not; else nothing. */
    @Test
    void aReactiveAppGetsThePagesFilterOnlyWithTheEndpointExposed() {
        ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CpuProfilerAutoConfiguration.class,
                        CpuProfilerEndpointAutoConfiguration.class, EndpointAutoConfiguration.class,
                        WebEndpointAutoConfiguration.class, ManagementContextAutoConfiguration.class));
        reactive.run(context -> assertThat(context).doesNotHaveBean(StatusPageWebFilter.class));
        ReactiveWebApplicationContextRunner exposed = reactive
                .withPropertyValues("management.endpoints.web.exposure.include=cpuprofiler");
        exposed.run(context -> assertThat(context).hasSingleBean(StatusPageWebFilter.class));
        exposed.withClassLoader(new FilteredClassLoader("org.springframework.security."))
                .run(context -> assertThat(context).hasSingleBean(StatusPageWebFilter.class));
        exposed.withPropertyValues("profiler.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(StatusPageWebFilter.class));
    }

    @Test
    void profilerEnabledFalseLogsOneInfoLine(CapturedOutput output) {
        runner.withConfiguration(AutoConfigurations.of(CpuProfilerOffAutoConfiguration.class))
                .withPropertyValues("profiler.enabled=false").run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getOut().lines().filter(l -> l.contains("cpuprofiler is off (profiler.enabled=false)")))
                .singleElement().asString().contains("INFO");
        runner.withConfiguration(AutoConfigurations.of(CpuProfilerOffAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean("cpuProfilerOffNotice"));
    }

    @Test
    void profilerEnabledFalseCreatesNothingAndStartsNoThread() throws Exception {
        own.run(() -> runner.withPropertyValues("profiler.enabled=false",
                "management.endpoints.web.exposure.include=cpuprofiler").run(context -> {
                    assertThat(context).doesNotHaveBean(CpuProfiler.class)
                            .doesNotHaveBean(CpuProfilerOptions.class)
                            .doesNotHaveBean(CpuProfilerEndpoint.class)
                            .doesNotHaveBean(CpuProfilerMeterBinder.class);
                    context.publishEvent(new ApplicationReadyEvent(new SpringApplication(), new String[0], context,
                            Duration.ZERO));
                    // The event was delivered (publishEvent returns after every listener ran): nothing listened.
                    assertThat(own.alive("cpuprofiler-")).isEmpty();
                }));
    }

    @Test
    void cpuEnabledFalseKeepsMonitoringAndTheEndpointButNeverTriggers() {
        runner.withPropertyValues("profiler.cpu.enabled=false",
                "management.endpoints.web.exposure.include=cpuprofiler").run(context -> {
                    assertThat(context).hasSingleBean(CpuProfiler.class).hasSingleBean(CpuProfilerEndpoint.class);
                    assertThat(context.getBean(CpuProfiler.class).status().state()).isEqualTo(CpuProfilerStatus.State.DISABLED);
                });
    }

    @Test
    void bindsEveryPropertyAndBareNumbersMeanSeconds() {
        runner.withPropertyValues("profiler.cpu.threshold=65.5", "profiler.cpu.cooldown=90",
                "profiler.cpu.duration=45", "profiler.cpu.sampling-interval=2", "profiler.cpu.polling-interval=10s",
                "profiler.cpu.rolling-history-size=20m", "profiler.cpu.rolling-history-interval=1m",
                "profiler.cpu.average-window=2m", "profiler.cpu.source=process", "profiler.cpu.engine=jfr-execution",
                "profiler.cpu.stack-sampling-period=20", "profiler.cpu.retained-profiles=3",
                "profiler.cpu.retained-size=8MB", "profiler.cpu.max-stack-depth=128",
                "profiler.cpu.group-by-thread=true", "profiler.cpu.lookback=45",
                "profiler.cpu.lookback-sampling-period=50").run(context -> {
                    CpuProfilerOptions o = context.getBean(CpuProfilerOptions.class);
                    assertThat(o.getThreshold()).isEqualTo(65.5);
                    assertThat(o.getCooldown()).isEqualTo(Duration.ofSeconds(90));
                    assertThat(o.getDuration()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(o.getSamplingInterval()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(o.getPollingInterval()).isEqualTo(Duration.ofSeconds(10));
                    assertThat(o.getRollingHistorySize()).isEqualTo(Duration.ofMinutes(20));
                    assertThat(o.getRollingHistoryInterval()).isEqualTo(Duration.ofMinutes(1));
                    assertThat(o.getAverageWindow()).isEqualTo(Duration.ofMinutes(2));
                    assertThat(o.getSource()).isEqualTo(CpuSourceMode.PROCESS);
                    assertThat(o.getEngine()).isEqualTo(EngineChoice.JFR_EXECUTION);
                    assertThat(o.getStackSamplingPeriod()).isEqualTo(Duration.ofMillis(20));
                    assertThat(o.getRetainedProfiles()).isEqualTo(3);
                    assertThat(o.getRetainedSize()).isEqualTo(8L * 1024 * 1024);
                    assertThat(o.getMaxStackDepth()).isEqualTo(128);
                    assertThat(o.isGroupByThread()).isTrue();
                    assertThat(o.getLookback()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(o.getLookbackSamplingPeriod()).isEqualTo(Duration.ofMillis(50));
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnProfiler {

        // Built per context, not held in a static: the context closes it, and no other test may see it closed.
        @Bean
        CpuProfiler myProfiler() {
            CpuProfilerOptions options = new CpuProfilerOptions();
            options.setThreshold(33);
            return CpuProfiler.builder(options).build();
        }
    }

    @Test
    void aUsersOwnBeanWins() {
        runner.withUserConfiguration(OwnProfiler.class).run(context -> {
            assertThat(context).hasSingleBean(CpuProfiler.class).hasBean("myProfiler").doesNotHaveBean("cpuProfiler");
            assertThat(context.getBean(CpuProfiler.class)).isSameAs(context.getBean("myProfiler"));
            assertThat(context.getBean(CpuProfiler.class).options().getThreshold()).isEqualTo(33);
        });
        runner.withBean(CpuProfilerOptions.class, () -> {
            CpuProfilerOptions o = new CpuProfilerOptions();
            o.setThreshold(42);
            return o;
        }).run(context -> assertThat(context.getBean(CpuProfiler.class).options().getThreshold()).isEqualTo(42));
    }

    @Configuration(proxyBeanMethods = false)
    static class OrderedCustomizers {

        @Bean
        @Order(2)
        CpuProfilerCustomizer second() {
            return o -> o.setThreshold(o.getThreshold() + 10);
        }

        @Bean
        @Order(1)
        CpuProfilerCustomizer first() {
            return o -> {
                o.setThreshold(60);
                o.setCooldown(Duration.ofMinutes(30));
            };
        }
    }

    @Test
    void customizersApplyAfterBindingInOrder() {
        runner.withPropertyValues("profiler.cpu.threshold=90").withUserConfiguration(OrderedCustomizers.class)
                .run(context -> {
                    CpuProfilerOptions o = context.getBean(CpuProfilerOptions.class);
                    assertThat(o.getThreshold()).isEqualTo(70);
                    assertThat(o.getCooldown()).isEqualTo(Duration.ofMinutes(30));
                });
    }

    @Test
    void invalidPropertiesFailStartUpNamingTheProperty() {
        runner.withPropertyValues("profiler.cpu.threshold=150").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("profiler.cpu.threshold")
                .hasMessageContaining("at most 100"));
        runner.withPropertyValues("profiler.cpu.threshold=0").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("profiler.cpu.threshold"));
        runner.withPropertyValues("profiler.cpu.cooldown=-5s").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("profiler.cpu.cooldown"));
        runner.withPropertyValues("profiler.cpu.average-window=20m").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("profiler.cpu.average-window")
                .hasMessageContaining("rolling-history-size"));
        // The documented spellings (docs/settings.md), not the enum's (ASYNC_PROFILER), with the property; they bind.
        runner.withPropertyValues("profiler.cpu.engine=perf").run(context -> assertThat(context).hasFailed()
                .getFailure().hasStackTraceContaining("profiler.cpu.engine")
                .rootCause().hasMessage("unknown engine 'perf': use auto, jfr-cpu-time, async-profiler or "
                        + "jfr-execution"));
        runner.withPropertyValues("profiler.cpu.engine=async-profiler").run(context -> assertThat(context
                .getBean(CpuProfilerOptions.class).getEngine()).isEqualTo(EngineChoice.ASYNC_PROFILER));
        runner.withPropertyValues("profiler.cpu.saturation.threshold=40").run(context -> assertThat(context)
                .hasFailed().getFailure().rootCause().hasMessageContaining("profiler.cpu.saturation.threshold")
                .hasMessageContaining("between 50.0 and 100.0"));
        runner.withPropertyValues("profiler.cpu.lookback=500ms").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("profiler.cpu.lookback")
                .hasMessageContaining("must be 0 (off) or between PT1S and PT10M"));
        runner.withPropertyValues("profiler.cpu.lookback-sampling-period=2s").run(context -> assertThat(context)
                .hasFailed().getFailure().rootCause().hasMessageContaining("profiler.cpu.lookback-sampling-period"));
    }

    /** Others could read the profiles there, or plant and replace files beside them. */
    @Test
    void anOutputDirectoryOthersMayWriteFailsStartUpNamingTheProperty(@TempDir Path dir) throws IOException {
        Assumptions.assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"),
                "no POSIX permissions on this filesystem");
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        runner.withPropertyValues("profiler.cpu.output-directory=" + shared).run(context -> {
            assertThat(context).hasFailed().getFailure().rootCause().isInstanceOf(InvalidOptionException.class);
            FailureAnalysis analysis = new InvalidOptionFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("profiler.cpu.output-directory", shared.toString(),
                    "rwxrwxrwx");
            assertThat(analysis.getAction()).contains("profiler.cpu.output-directory");
        });
    }

    @Test
    void anInvalidPropertyFailsStartUpEvenWhenACustomizerSetsItLater() {
        runner.withPropertyValues("profiler.cpu.threshold=150").withUserConfiguration(OrderedCustomizers.class)
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("profiler.cpu.threshold").hasMessageContaining("at most 100")
                        .hasMessageNotContaining("CpuProfilerCustomizer"));
    }

    @Test
    void anInvalidValueFromACustomizerFailsNamingThePropertyAndTheCustomizer() {
        runner.withBean(CpuProfilerCustomizer.class, () -> o -> o.setThreshold(250)).run(context ->
                assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("profiler.cpu.threshold")
                        .hasMessageContaining("CpuProfilerCustomizer"));
    }

    @Test
    void metersAreBoundOnlyWhenMicrometerAndARegistryArePresent() {
        runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class).run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.find("profiler.cpu.usage").gauge()).isNotNull();
                    assertThat(registry.find("profiler.cpu.average").gauge()).isNotNull();
                    assertThat(registry.find("profiler.cpu.effective.count").gauge().value()).isPositive();
                    assertThat(registry.find("profiler.session.active").gauge().value()).isZero();
                    assertThat(registry.find("profiler.cooldown.remaining").gauge().value()).isZero();
                    // No profile yet: the ratios of the latest profile are unknown.
                    assertThat(registry.find("profiler.cpu.utilization").gauge().value()).isNaN();
                    assertThat(registry.find("profiler.cpu.bottleneck").gauge().value()).isNaN();
                    assertThat(registry.find("profiler.cpu.breakdown").gauges()).extracting(g -> g.getId().getTag("group"))
                            .containsExactlyInAnyOrder("application", "gc", "jit", "profiler", "jvm-other",
                                    "unattributed");
                    assertThat(registry.find("profiler.cpu.breakdown").tag("group", "gc").gauge().value()).isNaN();
                    assertThat(registry.find("profiler.sessions").tags("trigger", "cpu", "outcome", "completed")
                            .counter()).isNotNull();
                    assertThat(registry.find("profiler.sessions").tags("trigger", "saturation", "outcome", "failed")
                            .counter()).isNotNull();
                    // Not started here: no thread read yet, so no hottest thread (0, not NaN: nothing is pinned).
                    assertThat(registry.find("profiler.cpu.thread.max.usage").gauge().value()).isZero();
                    // Look-back is on by default: idle (not even started in this runner, no ApplicationReadyEvent),
                    // its ring holds nothing.
                    assertThat(registry.find("profiler.lookback.memory").gauge().value()).isZero();
                });
        runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class))
                .withBean(SimpleMeterRegistry.class).withPropertyValues("profiler.cpu.lookback=0").run(context ->
                        assertThat(context.getBean(MeterRegistry.class).find("profiler.lookback.memory").gauge())
                                .as("no gauge for a look-back switched off").isNull());
        runner.run(context -> assertThat(context).doesNotHaveBean(MeterRegistry.class));
        runner.withClassLoader(new FilteredClassLoader(MeterBinder.class))
                .run(context -> assertThat(context).hasSingleBean(CpuProfiler.class)
                        .doesNotHaveBean(CpuProfilerMeterBinder.class));
    }

    @Test
    void endpointExistsOnlyWhenExposed() {
        runner.run(context -> assertThat(context).doesNotHaveBean(CpuProfilerEndpoint.class));
        runner.withPropertyValues("management.endpoints.web.exposure.include=cpuprofiler")
                .run(context -> assertThat(context).hasSingleBean(CpuProfilerEndpoint.class));
    }

    @Test
    void startsWhenReadyAndNoProfilerThreadSurvivesTheContext() throws Exception {
        own.run(() -> runner.run(context -> {
            context.publishEvent(new ApplicationReadyEvent(new SpringApplication(), new String[0], context,
                    Duration.ZERO));
            // start() returns at once: its start thread starts the sampler, then ends. Only this test's contexts run
            // in its thread group. The policy is checked on the sampler's tick: an idle profiler has no other thread.
            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(own.alive("cpuprofiler-"))
                    .extracting(Thread::getName).containsExactlyInAnyOrder("cpuprofiler-sampler"));
        }));
        await().atMost(Duration.ofSeconds(10)).until(() -> own.alive("cpuprofiler-").isEmpty());
    }
}
