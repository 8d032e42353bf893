package dev.cpuprofiler.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cpuprofiler.autoconfigure.export.CpuProfilerExportAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

/**
 * What a user sees when a setting is out of range: Spring Boot's start-up failure report names the property, its value
 * and the rule, whether the core refuses it (a {@code profiler.cpu.*} setting) or the starter as it binds it (a
 * {@code profiler.cpu.export.*} one).
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidOptionFailureAnalyzerTest {

    @Test
    void anOutOfRangeSettingIsReportedByItsPropertyAndRule(CapturedOutput output) {
        start("profiler.cpu.threshold=150");
        assertThat(output).contains("APPLICATION FAILED TO START", "Invalid value '150.0' for profiler.cpu.threshold: "
                + "must be a percentage greater than 0 and at most 100.", "Change profiler.cpu.threshold");
    }

    @Test
    void anExportSettingRefusedAsItIsBoundIsReportedTheSameWay(CapturedOutput output) {
        start("profiler.cpu.export.pyroscope.url=http://localhost:4040", "profiler.cpu.export.pyroscope.format=xml");
        assertThat(output).contains("APPLICATION FAILED TO START", "Invalid value 'xml' for "
                + "profiler.cpu.export.pyroscope.format: must be one of pprof, jfr.")
                .doesNotContain("Failed to bind properties");
    }

    private static void start(String... properties) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(Profiler.class).web(WebApplicationType.NONE)
                .properties("profiler.cpu.enabled=false").properties(properties).run().close())
                .isInstanceOf(RuntimeException.class);
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({CpuProfilerAutoConfiguration.class, CpuProfilerExportAutoConfiguration.class})
    static class Profiler {
    }
}
