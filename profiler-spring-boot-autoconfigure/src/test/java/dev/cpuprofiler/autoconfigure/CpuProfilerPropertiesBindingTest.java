package dev.cpuprofiler.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.cpuprofiler.CpuProfilerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.convert.DataSizeUnit;
import org.springframework.boot.convert.DurationUnit;

/**
 * Every setting of {@link CpuProfilerOptions} is a property of {@link CpuProfilerProperties} that reaches the
 * options, with the bare-number unit its field declares, and the properties' defaults are the options': a setting
 * added to one but not the other, or a default written differently, fails here.
 */
class CpuProfilerPropertiesBindingTest {

    private final Map<String, String> properties = new LinkedHashMap<>();
    private final Map<OptionKey, Object> expected = new LinkedHashMap<>();

    @Test
    void everySettingIsBoundWithItsBareNumberUnitAndReachesTheOptions() {
        OptionKey.all().forEach(this::otherThanItsDefault);

        CpuProfilerOptions options = new Binder(new MapConfigurationPropertySource(properties))
                .bind("profiler", CpuProfilerProperties.class).get().toOptions();

        CpuProfilerOptions defaults = new CpuProfilerOptions();
        expected.forEach((setting, value) -> {
            assertThat(setting.field()).as("the binding of %s", setting.property()).isNotNull();
            assertThat(value).as(setting.property()).isNotEqualTo(setting.get(defaults));
            assertThat(setting.get(options)).as("%s=%s", setting.property(), properties.get(setting.property()))
                    .isEqualTo(value);
        });
    }

    @Test
    void defaultsAreTheOptions() {
        CpuProfilerOptions bound = new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("profiler", CpuProfilerProperties.class).toOptions();
        CpuProfilerOptions core = new CpuProfilerOptions();
        for (OptionKey setting : OptionKey.all()) {
            assertThat(setting.get(bound)).as(setting.property()).isEqualTo(setting.get(core));
        }
    }

    /** A value other than the default, written as a bare number where the setting takes one. */
    private void otherThanItsDefault(OptionKey setting) {
        Class<?> type = setting.type();
        Object defaultValue = setting.get(new CpuProfilerOptions());
        String bareNumber = bareNumber(setting);
        Object value;
        String text;
        if (type == boolean.class) {
            value = !(Boolean) defaultValue;
            text = value.toString();
        } else if (type == double.class) {
            value = 42.5;
            text = "42.5";
        } else if (type == int.class) {
            value = (Integer) defaultValue + 3;
            text = value.toString();
        } else if (type == Duration.class) {
            value = Duration.of(7, switch (bareNumber) {
                case "seconds" -> ChronoUnit.SECONDS;
                case "milliseconds" -> ChronoUnit.MILLIS;
                default -> throw new AssertionError(setting + ": bare number in " + bareNumber);
            });
            text = "7";
        } else if (type == long.class) {
            value = 3 * switch (bareNumber) {
                case "bytes" -> 1L;
                case "megabytes" -> 1024L * 1024;
                default -> throw new AssertionError(setting + ": bare number in " + bareNumber);
            };
            text = "3";
        } else if (type == Path.class) {
            value = Path.of("/tmp/profiles");
            text = "/tmp/profiles";
        } else if (type == String.class) {
            value = "https://tempo.example/trace/{traceId}";
            text = (String) value;
        } else if (type.isEnum()) {
            value = null;
            text = null;
            for (Object constant : type.getEnumConstants()) {
                if (constant != defaultValue) {
                    value = constant;
                    text = ((Enum<?>) constant).name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
                }
            }
        } else {
            fail("no test value for %s of type %s", setting, type);
            return;
        }
        properties.put(setting.property(), text);
        expected.put(setting, value);
    }

    /** What a bare number means for this setting, from its field's {@code @DurationUnit} or {@code @DataSizeUnit}. */
    private static String bareNumber(OptionKey setting) {
        if (setting.field() == null) {
            return null;
        }
        DurationUnit duration = setting.field().getAnnotation(DurationUnit.class);
        if (duration != null) {
            return duration.value() == ChronoUnit.SECONDS ? "seconds" : duration.value() == ChronoUnit.MILLIS
                    ? "milliseconds" : duration.value().toString();
        }
        DataSizeUnit size = setting.field().getAnnotation(DataSizeUnit.class);
        return size == null ? null : size.value().name().toLowerCase(java.util.Locale.ROOT);
    }
}
