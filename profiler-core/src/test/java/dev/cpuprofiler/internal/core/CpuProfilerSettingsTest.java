package dev.cpuprofiler.internal.core;

import dev.cpuprofiler.Range;
import dev.cpuprofiler.SettingText;
import dev.cpuprofiler.CpuProfilerSettings;
import dev.cpuprofiler.Setting;
import dev.cpuprofiler.InvalidOptionException;
import dev.cpuprofiler.CpuProfilerOptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cpuprofiler.internal.engine.EngineSettings;
import dev.cpuprofiler.internal.lookback.LookbackSettings;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuProfilerSettingsTest {

    @Test
    void theCatalogueListsEverySettingItDeclaresOnceWithADescription() throws IllegalAccessException {
        List<Setting<?>> declared = new ArrayList<>();
        for (Field field : CpuProfilerSettings.class.getDeclaredFields()) {
            if (field.getType() == Setting.class && Modifier.isStatic(field.getModifiers())) {
                declared.add((Setting<?>) field.get(null));
            }
        }
        assertThat(CpuProfilerSettings.all()).containsExactlyInAnyOrderElementsOf(declared);
        assertThat(new HashSet<>(CpuProfilerSettings.all().stream().map(Setting::key).toList()))
                .hasSameSizeAs(CpuProfilerSettings.all());
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            // kebab-case words, a nested group such as jfr.include-system-info joined by a dot
            assertThat(setting.key()).matches("[a-z]+(-[a-z]+)*(\\.[a-z]+(-[a-z]+)*)?");
            assertThat(setting.description()).as(setting.property()).isNotBlank().endsWith(".");
        }
    }

    @Test
    void newOptionsHoldEveryDefaultAndPassValidation() {
        CpuProfilerOptions options = new CpuProfilerOptions().validate();
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            assertThat(setting.get(options)).as(setting.property()).isEqualTo(setting.defaultValue());
        }
    }

    @Test
    void copyCarriesEverySetting() {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setThreshold(55);
        options.setLookback(Duration.ofSeconds(20));
        options.setLookbackArmingRatio(0.5);
        options.setStartupGrace(Duration.ofSeconds(5));
        options.setMinFreeDiskSpace(0);
        CpuProfilerOptions copy = options.copy();
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            assertThat(setting.get(copy)).as(setting.property()).isEqualTo(setting.get(options));
        }
    }

    @Test
    void aStagesOwnLimitIsTheRangeOfItsSetting() {
        assertThat(CpuProfilerSettings.STACK_SAMPLING_PERIOD.<Duration>range().min())
                .isEqualTo(EngineSettings.MIN_PERIOD);
        assertThat(CpuProfilerSettings.STACK_SAMPLING_PERIOD.<Duration>range().max())
                .isEqualTo(EngineSettings.MAX_PERIOD);
        assertThat(CpuProfilerSettings.LOOKBACK_SAMPLING_PERIOD.<Duration>range().min())
                .isEqualTo(LookbackSettings.MIN_PERIOD);
        assertThat(CpuProfilerSettings.LOOKBACK_SAMPLING_PERIOD.<Duration>range().max())
                .isEqualTo(LookbackSettings.MAX_PERIOD);
        assertThat(CpuProfilerSettings.LOOKBACK.description()).contains("between 1s and 10m");
    }

    /** Just outside each constant range: the message names the property and the range. */
    @Test
    void everyRangeIsCheckedWithAMessageNamingThePropertyAndTheRange() {
        int checked = 0;
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            if (setting.range() != null && !(setting.equals(CpuProfilerSettings.ROLLING_HISTORY_INTERVAL)
                    || setting.equals(CpuProfilerSettings.ROLLING_HISTORY_SIZE)
                    || setting.equals(CpuProfilerSettings.AVERAGE_WINDOW))) {
                checked += outside(setting);
            }
        }
        assertThat(checked).as("two values for each of the ten constant ranges").isEqualTo(2 * 10);
    }

    private static <T> int outside(Setting<T> setting) {
        Range<?> range = setting.range();
        Object below;
        Object above;
        if (setting.type() == Duration.class) {
            below = ((Duration) range.min()).minusNanos(1);
            above = ((Duration) range.max()).plusNanos(1);
        } else {
            below = (Integer) range.min() - 1;
            above = (Integer) range.max() + 1;
        }
        for (Object value : List.of(below, above)) {
            CpuProfilerOptions options = new CpuProfilerOptions();
            setting.setChecked(options, value);
            assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                assertThat(e.property()).isEqualTo(setting.property());
                assertThat(e.getMessage()).contains(setting.property())
                        .contains("must be between " + range.min() + " and " + range.max());
            });
        }
        return 2;
    }

    @Test
    void aRangeBoundByAnotherSettingNamesItAndReportsItFirstWhenItIsTheOneOutOfRange() {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setRollingHistoryInterval(Duration.ofMillis(500));
        assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(
                e.getMessage()).isEqualTo("Invalid value 'PT0.5S' for profiler.cpu.rolling-history-interval: must be "
                        + "at least profiler.cpu.sampling-interval (PT1S) and at most PT1H"));
        options.setRollingHistoryInterval(Duration.ofMillis(1));
        options.setSamplingInterval(Duration.ZERO);
        assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class,
                e -> assertThat(e.property()).isEqualTo("profiler.cpu.sampling-interval"));
    }

    @Test
    void tooManyBaselineSlotsAreRefused() {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.setSamplingInterval(Duration.ofMillis(10));
        options.setRollingHistoryInterval(Duration.ofMillis(10));
        options.setAverageWindow(Duration.ofMillis(10));
        options.setRollingHistorySize(Duration.ofMinutes(20));
        assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(
                e.getMessage()).contains("profiler.cpu.rolling-history-size").contains("at most 100000"));
    }

    @Test
    void valuesAreWrittenAsPropertiesTakeThem() {
        assertThat(SettingText.duration(Duration.ofHours(4))).isEqualTo("4h");
        assertThat(SettingText.duration(Duration.ofMillis(10))).isEqualTo("10ms");
        assertThat(SettingText.duration(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(SettingText.duration(Duration.ZERO)).isEqualTo("0");
        assertThat(SettingText.bytes(64L * 1024 * 1024)).isEqualTo("64MB");
        assertThat(SettingText.number(80)).isEqualTo("80");
        assertThat(SettingText.number(12.5)).isEqualTo("12.5");
        assertThat(CpuProfilerSettings.MIN_FREE_DISK_SPACE.defaultText()).isNull();
        assertThat(CpuProfilerSettings.ENGINE.defaultText()).isEqualTo("auto");
    }
}
