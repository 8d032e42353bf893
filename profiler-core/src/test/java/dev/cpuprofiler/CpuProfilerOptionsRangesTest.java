package dev.cpuprofiler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cpuprofiler.CpuProfilerOptions;
import dev.cpuprofiler.CpuSourceMode;
import dev.cpuprofiler.EngineChoice;
import dev.cpuprofiler.InvalidOptionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** Every setting's range is checked, each message naming the property and the range; copies carry every setting. */
class CpuProfilerOptionsRangesTest {

    /** A constant range: the setter, the bounds, and the value just outside each bound. */
    private record Bounded<T>(String key, BiConsumer<CpuProfilerOptions, T> set, T min, T max, T below, T above) {
    }

    private static final List<Bounded<?>> CONSTANT_RANGES = List.of(
            durations("duration", CpuProfilerOptions::setDuration, Duration.ofSeconds(1), Duration.ofHours(1)),
            durations("sampling-interval", CpuProfilerOptions::setSamplingInterval, Duration.ofMillis(10),
                    Duration.ofMinutes(1)),
            durations("polling-interval", CpuProfilerOptions::setPollingInterval, Duration.ofMillis(10),
                    Duration.ofHours(1)),
            durations("stack-sampling-period", CpuProfilerOptions::setStackSamplingPeriod, Duration.ofMillis(1),
                    Duration.ofSeconds(1)),
            counts("retained-profiles", CpuProfilerOptions::setRetainedProfiles, 1, 1000),
            counts("output-retention", CpuProfilerOptions::setOutputRetention, 1, 100_000),
            counts("max-stack-depth", CpuProfilerOptions::setMaxStackDepth, 8, 8192),
            counts("max-tree-nodes", CpuProfilerOptions::setMaxTreeNodes, 100, 10_000_000),
            durations("lookback-sampling-period", CpuProfilerOptions::setLookbackSamplingPeriod,
                    Duration.ofMillis(10), Duration.ofSeconds(1)),
            durations("startup-grace", CpuProfilerOptions::setStartupGrace, Duration.ZERO, Duration.ofHours(1)),
            new Bounded<>("saturation.threshold", (CpuProfilerOptions o, Double t) -> o.getSaturation().setThreshold(t),
                    50.0, 100.0, 49.99, 100.01),
            durations("reference.duration", (o, d) -> o.getReference().setDuration(d), Duration.ofSeconds(1),
                    Duration.ofHours(1)));

    private static Bounded<Duration> durations(String key, BiConsumer<CpuProfilerOptions, Duration> set, Duration min,
            Duration max) {
        return new Bounded<>(key, set, min, max, min.minusNanos(1), max.plusNanos(1));
    }

    private static Bounded<Integer> counts(String key, BiConsumer<CpuProfilerOptions, Integer> set, int min, int max) {
        return new Bounded<>(key, set, min, max, min - 1, max + 1);
    }

    /** Just outside each constant range fails naming the property and the range; each bound itself passes. */
    @Test
    void everyRangeIsCheckedWithAMessageNamingThePropertyAndTheRange() {
        for (Bounded<?> range : CONSTANT_RANGES) {
            check(range);
        }
        assertThat(CONSTANT_RANGES).as("the twelve constant ranges").hasSize(12);
    }

    private static <T> void check(Bounded<T> range) {
        String property = CpuProfilerOptions.PREFIX + range.key();
        for (T value : List.of(range.below(), range.above())) {
            CpuProfilerOptions options = new CpuProfilerOptions();
            range.set().accept(options, value);
            assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class, e -> {
                assertThat(e.property()).isEqualTo(property);
                assertThat(e.getMessage()).isEqualTo("Invalid value '" + value + "' for " + property
                        + ": must be between " + range.min() + " and " + range.max());
            });
        }
        for (T value : List.of(range.min(), range.max())) {
            CpuProfilerOptions options = new CpuProfilerOptions();
            range.set().accept(options, value);
            try {
                options.validate();
            } catch (InvalidOptionException e) {
                // A bound may put another setting out of its range (a 1-min sampling interval, the 30-s slots
                // bounded by it), never this one.
                assertThat(e.property()).as("%s=%s", property, value).isNotEqualTo(property);
            }
        }
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
    void theSaturationWindowLiesBetweenTheSamplingIntervalAndTheRollingHistory() {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.getSaturation().setWindow(Duration.ofMillis(999));
        assertThatThrownBy(options::validate).hasMessage("Invalid value 'PT0.999S' for profiler.cpu.saturation.window: "
                + "must be at least profiler.cpu.sampling-interval (PT1S) and at most "
                + "profiler.cpu.rolling-history-size (PT10M)");
        options.getSaturation().setWindow(Duration.ofMinutes(11));
        assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class,
                e -> assertThat(e.property()).isEqualTo("profiler.cpu.saturation.window"));
        options.getSaturation().setWindow(Duration.ofMinutes(10));
        options.validate();
        // Unset: a minute, or the whole rolling history when that is shorter (a short history never fails start-up).
        options.getSaturation().setWindow(null);
        assertThat(options.validate().effectiveSaturationWindow()).isEqualTo(Duration.ofMinutes(1));
        options.setSamplingInterval(Duration.ofMillis(20));
        options.setRollingHistoryInterval(Duration.ofMillis(200));
        options.setAverageWindow(Duration.ofMillis(200));
        options.setRollingHistorySize(Duration.ofSeconds(2));
        assertThat(options.validate().effectiveSaturationWindow()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void theReferenceRefreshIsAtLeastItsDurationAndAtMostAMonth() {
        CpuProfilerOptions options = new CpuProfilerOptions();
        options.getReference().setRefresh(Duration.ofSeconds(9));
        assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class, e -> assertThat(
                e.getMessage()).isEqualTo("Invalid value 'PT9S' for profiler.cpu.reference.refresh: must be at least "
                        + "profiler.cpu.reference.duration (PT10S) and at most PT720H"));
        options.getReference().setRefresh(Duration.ofSeconds(10));
        options.validate();
        options.getReference().setRefresh(Duration.ofDays(30).plusSeconds(1));
        assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class,
                e -> assertThat(e.property()).isEqualTo("profiler.cpu.reference.refresh"));
        options.getReference().setRefresh(null);
        assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class,
                e -> assertThat(e.property()).isEqualTo("profiler.cpu.reference.refresh"));
        // A longer reference takes the refresh's floor with it; the duration is named first when it is out of range.
        options.getReference().setRefresh(Duration.ofMinutes(1));
        options.getReference().setDuration(Duration.ofMinutes(2));
        assertThatThrownBy(options::validate).hasMessageContaining("profiler.cpu.reference.refresh: must be at least "
                + "profiler.cpu.reference.duration (PT2M)");
        options.getReference().setDuration(Duration.ZERO);
        assertThatThrownBy(options::validate).isInstanceOfSatisfying(InvalidOptionException.class,
                e -> assertThat(e.property()).isEqualTo("profiler.cpu.reference.duration"));
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
    void theEnumeratedSettingsNameTheirValuesWhenUnset() {
        assertThatThrownBy(() -> {
            CpuProfilerOptions o = new CpuProfilerOptions();
            o.setSource(null);
            o.validate();
        }).hasMessage("Invalid value 'null' for profiler.cpu.source: must be one of auto, cgroup, process");
        assertThat(CpuSourceMode.values()).hasSize(3);
        assertThatThrownBy(() -> {
            CpuProfilerOptions o = new CpuProfilerOptions();
            o.setEngine(null);
            o.validate();
        }).hasMessage("Invalid value 'null' for profiler.cpu.engine: must be one of auto, jfr-cpu-time, "
                + "async-profiler, jfr-execution");
        assertThat(EngineChoice.values()).hasSize(4);
    }

    @Test
    void copyCarriesEverySetting() throws Exception {
        CpuProfilerOptions options = new CpuProfilerOptions();
        int changed = 0;
        for (Object group : List.of(options, options.getJfr(), options.getSaturation(), options.getReference())) {
            for (PropertyDescriptor d : settings(group)) {
                Object value = d.getReadMethod().invoke(group);
                Class<?> type = d.getPropertyType();
                Object other = type == boolean.class ? !(Boolean) value : type == double.class ? 0.42
                        : type == int.class ? (Integer) value + 1 : type == long.class ? (Long) value + 7
                        : type == Duration.class ? (value == null ? Duration.ofSeconds(7)
                                : ((Duration) value).plusMillis(3))
                        : type == Path.class ? Path.of("/x")
                        : type.isEnum() ? type.getEnumConstants()[1]
                        : type == String.class ? "https://tempo.example/trace/{traceId}" : null;
                assertThat(other).as(d.getName()).isNotNull().isNotEqualTo(value);
                d.getWriteMethod().invoke(group, other);
                changed++;
            }
        }
        CpuProfilerOptions copy = options.copy();
        assertThat(copy.getJfr()).isNotSameAs(options.getJfr());
        assertThat(copy.getSaturation()).isNotSameAs(options.getSaturation());
        assertThat(copy.getReference()).isNotSameAs(options.getReference());
        List<Object> originals = List.of(options, options.getJfr(), options.getSaturation(), options.getReference());
        List<Object> copies = List.of(copy, copy.getJfr(), copy.getSaturation(), copy.getReference());
        for (int i = 0; i < originals.size(); i++) {
            for (PropertyDescriptor d : settings(originals.get(i))) {
                assertThat(d.getReadMethod().invoke(copies.get(i))).as(d.getName())
                        .isEqualTo(d.getReadMethod().invoke(originals.get(i)));
            }
        }
        assertThat(changed).as("settings").isEqualTo(33);
    }

    private static List<PropertyDescriptor> settings(Object group) throws Exception {
        return Arrays.stream(Introspector.getBeanInfo(group.getClass(), Object.class).getPropertyDescriptors())
                .filter(d -> d.getWriteMethod() != null).toList();
    }
}
