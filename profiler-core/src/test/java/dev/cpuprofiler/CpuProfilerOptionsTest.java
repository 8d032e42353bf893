package dev.cpuprofiler;

import dev.cpuprofiler.InvalidOptionException;
import dev.cpuprofiler.CpuProfilerOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.EngineChoice;
import java.time.Duration;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class CpuProfilerOptionsTest {

    @Test
    void defaultsMirrorTheOriginalProfiler() {
        CpuProfilerOptions o = new CpuProfilerOptions().validate();
        assertThat(o.isEnabled()).isTrue();
        assertThat(o.getThreshold()).isEqualTo(80);
        assertThat(o.getCooldown()).isEqualTo(Duration.ofHours(4));
        assertThat(o.getDuration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.getSamplingInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(o.getPollingInterval()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.getRollingHistorySize()).isEqualTo(Duration.ofMinutes(10));
        assertThat(o.getRollingHistoryInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.getAverageWindow()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.getSource()).isEqualTo(CpuSourceMode.AUTO);
        assertThat(o.getEngine()).isEqualTo(EngineChoice.AUTO);
        assertThat(o.getStackSamplingPeriod()).isEqualTo(Duration.ofMillis(10));
        assertThat(o.getRetainedProfiles()).isEqualTo(10);
        assertThat(o.getLookback()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.getLookbackArmingRatio()).isEqualTo(0.6);
        assertThat(o.getLookbackSamplingPeriod()).isEqualTo(Duration.ofMillis(50));
        assertThat(o.getStartupGrace()).isEqualTo(Duration.ofSeconds(60));
        assertThat(o.getMinFreeDiskSpace()).isEqualTo(CpuProfilerOptions.AUTO_FREE_DISK_SPACE);
        assertThat(o.getReference().isEnabled()).isTrue();
        assertThat(o.getReference().getDuration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(o.getReference().getRefresh()).isEqualTo(Duration.ofHours(1));
    }

    private static void assertInvalid(Consumer<CpuProfilerOptions> change, String property, String allowedFragment) {
        CpuProfilerOptions o = new CpuProfilerOptions();
        change.accept(o);
        assertThatThrownBy(o::validate).isInstanceOfSatisfying(InvalidOptionException.class, e -> {
            assertThat(e.property()).isEqualTo(property);
            assertThat(e.getMessage()).contains(property).contains(allowedFragment);
        });
    }

    @Test
    void invalidValuesNameThePropertyAndTheAllowedRange() {
        assertInvalid(o -> o.setThreshold(0), "profiler.cpu.threshold", "greater than 0 and at most 100");
        assertInvalid(o -> o.setTraceUrlTemplate("tempo.example/trace"), "profiler.cpu.trace-url-template",
                "an http(s) URL with {traceId} in it");
        assertInvalid(o -> o.setMaxEndpoints(0), "profiler.cpu.max-endpoints", "between 1 and 10000");
        assertInvalid(o -> o.setThreshold(150), "profiler.cpu.threshold", "at most 100");
        assertInvalid(o -> o.setThreshold(Double.NaN), "profiler.cpu.threshold", "at most 100");
        assertInvalid(o -> o.setCooldown(Duration.ofSeconds(-1)), "profiler.cpu.cooldown", "zero or positive");
        assertInvalid(o -> o.setDuration(Duration.ofSeconds(-5)), "profiler.cpu.duration", "between PT1S and PT1H");
        assertInvalid(o -> o.setSamplingInterval(Duration.ZERO), "profiler.cpu.sampling-interval", "between");
        assertInvalid(o -> o.setAverageWindow(Duration.ofMinutes(11)), "profiler.cpu.average-window",
                "at most profiler.cpu.rolling-history-size (PT10M)");
        assertInvalid(o -> o.setAverageWindow(Duration.ofSeconds(10)), "profiler.cpu.average-window",
                "at least profiler.cpu.rolling-history-interval (PT30S)");
        assertInvalid(o -> o.setRollingHistorySize(Duration.ofSeconds(10)), "profiler.cpu.rolling-history-size",
                "at least profiler.cpu.rolling-history-interval");
        assertInvalid(o -> o.setEngine(null), "profiler.cpu.engine", "jfr-cpu-time");
        assertInvalid(o -> o.setStackSamplingPeriod(Duration.ofSeconds(5)), "profiler.cpu.stack-sampling-period",
                "between");
        assertInvalid(o -> o.setRetainedProfiles(0), "profiler.cpu.retained-profiles", "between 1 and 1000");
        assertInvalid(o -> o.setMinFreeDiskSpace(-5), "profiler.cpu.min-free-disk-space",
                "at least 0B (0 turns the check off)");
        assertInvalid(o -> o.setLookback(Duration.ofMillis(500)), "profiler.cpu.lookback",
                "0 (off) or between PT1S and PT10M");
        assertInvalid(o -> o.setLookback(Duration.ofMinutes(11)), "profiler.cpu.lookback", "PT10M");
        assertInvalid(o -> o.setLookback(Duration.ofSeconds(-1)), "profiler.cpu.lookback", "0 (off)");
        assertInvalid(o -> o.setLookbackSamplingPeriod(Duration.ofMillis(5)), "profiler.cpu.lookback-sampling-period",
                "between PT0.01S and PT1S");
        assertInvalid(o -> o.getReference().setDuration(Duration.ofMillis(500)), "profiler.cpu.reference.duration",
                "between PT1S and PT1H");
        assertInvalid(o -> o.getReference().setRefresh(Duration.ofSeconds(5)), "profiler.cpu.reference.refresh",
                "at least profiler.cpu.reference.duration (PT10S)");
    }

    @Test
    void lookbackIsOffAtZeroAndCopied() {
        CpuProfilerOptions o = new CpuProfilerOptions();
        o.setLookback(Duration.ofSeconds(30));
        o.setLookbackSamplingPeriod(Duration.ofMillis(50));
        CpuProfilerOptions c = o.copy().validate();
        assertThat(c.getLookback()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.getLookbackSamplingPeriod()).isEqualTo(Duration.ofMillis(50));
    }

    @Test
    void anArmingRatioOutsideZeroToOneFailsNamingTheProperty() {
        for (double bad : new double[] {0, -0.1, 1.01}) {
            CpuProfilerOptions o = new CpuProfilerOptions();
            o.setLookbackArmingRatio(bad);
            assertThatThrownBy(o::validate).isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                assertThat(e.property()).isEqualTo("profiler.cpu.lookback-arming-ratio");
                assertThat(e.getMessage()).contains("must be greater than 0 and at most 1");
            });
        }
    }

    @Test
    void copyIsIndependent() {
        CpuProfilerOptions o = new CpuProfilerOptions();
        CpuProfilerOptions c = o.copy();
        o.setThreshold(50);
        assertThat(c.getThreshold()).isEqualTo(80);
    }

    @Test
    void engineIdsParseInEitherSpelling() {
        assertThat(EngineChoice.fromId("jfr-cpu-time")).isEqualTo(EngineChoice.JFR_CPU_TIME);
        assertThat(EngineChoice.fromId("ASYNC_PROFILER")).isEqualTo(EngineChoice.ASYNC_PROFILER);
        assertThatThrownBy(() -> EngineChoice.fromId("perf")).hasMessageContaining("unknown engine 'perf'");
    }
}
