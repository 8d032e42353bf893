package dev.cpuprofiler.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuProfilerSettings;
import dev.cpuprofiler.Setting;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Every setting of {@link CpuProfilerSettings} is a property of {@link CpuProfilerProperties} that reaches
 * {@link CpuProfilerOptions}: a setting added to the catalogue but not to the properties class fails here.
 */
class CpuProfilerPropertiesBindingTest {

    private final Map<String, String> properties = new LinkedHashMap<>();
    private final Map<Setting<?>, Object> expected = new LinkedHashMap<>();

    @Test
    void everySettingIsBoundWithItsBareNumberUnitAndReachesTheOptions() {
        CpuProfilerSettings.all().forEach(this::otherThanItsDefault);

        CpuProfilerOptions options = new Binder(new MapConfigurationPropertySource(properties))
                .bind("profiler", CpuProfilerProperties.class).get().getCpu().toOptions();

        CpuProfilerOptions defaults = new CpuProfilerOptions();
        expected.forEach((setting, value) -> {
            assertThat(value).as(setting.property()).isNotEqualTo(setting.get(defaults));
            assertThat(setting.get(options)).as("%s=%s", setting.property(), properties.get(setting.property()))
                    .isEqualTo(value);
        });
    }

    @Test
    void defaultsAreTheCatalogues() {
        CpuProfilerOptions options = new CpuProfilerProperties().getCpu().toOptions();
        for (Setting<?> setting : CpuProfilerSettings.all()) {
            assertThat(setting.get(options)).as(setting.property()).isEqualTo(setting.defaultValue());
        }
    }

    /** A value other than the default, written as a bare number where the setting takes one. */
    private <T> void otherThanItsDefault(Setting<T> setting) {
        Class<T> type = setting.type();
        T defaultValue = setting.defaultValue();
        Object value;
        String text;
        if (type == Boolean.class) {
            value = !(Boolean) defaultValue;
            text = value.toString();
        } else if (type == Double.class) {
            value = 42.5;
            text = "42.5";
        } else if (type == Integer.class) {
            value = (Integer) defaultValue + 3;
            text = value.toString();
        } else if (type == Duration.class) {
            value = Duration.of(7, switch (setting.bareNumber()) {
                case "seconds" -> ChronoUnit.SECONDS;
                case "milliseconds" -> ChronoUnit.MILLIS;
                default -> throw new AssertionError(setting + ": bare number in " + setting.bareNumber());
            });
            text = "7";
        } else if (type == Long.class) {
            value = 3 * switch (setting.bareNumber()) {
                case "bytes" -> 1L;
                case "megabytes" -> 1024L * 1024;
                default -> throw new AssertionError(setting + ": bare number in " + setting.bareNumber());
            };
            text = "3";
        } else if (type == Path.class) {
            value = Path.of("/tmp/profiles");
            text = "/tmp/profiles";
        } else if (type.isEnum()) {
            value = null;
            text = null;
            for (T constant : type.getEnumConstants()) {
                if (constant != defaultValue) {
                    value = constant;
                    text = setting.text(constant);
                }
            }
        } else {
            fail("no test value for %s of type %s", setting, type);
            return;
        }
        properties.put(setting.property(), text);
        expected.put(setting, value);
    }
}
