package dev.cpuprofiler;

import java.util.Objects;
import java.util.function.Function;

/**
 * The closed interval a setting's value must lie in. Each bound is a constant, or another setting's current value
 * ({@code rolling-history-interval} at least {@code sampling-interval}).
 *
 * @param <T> the value type
 */
public final class Range<T extends Comparable<? super T>> {

    private final T min;
    private final Setting<T> minSetting;
    private final T max;
    private final Setting<T> maxSetting;

    private Range(T min, Setting<T> minSetting, T max, Setting<T> maxSetting) {
        this.min = min;
        this.minSetting = minSetting;
        this.max = max;
        this.maxSetting = maxSetting;
    }

    public static <T extends Comparable<? super T>> Range<T> between(T min, T max) {
        return new Range<>(Objects.requireNonNull(min), null, Objects.requireNonNull(max), null);
    }

    public static <T extends Comparable<? super T>> Range<T> between(Setting<T> min, T max) {
        return new Range<>(null, Objects.requireNonNull(min), Objects.requireNonNull(max), null);
    }

    public static <T extends Comparable<? super T>> Range<T> between(Setting<T> min, Setting<T> max) {
        return new Range<>(null, Objects.requireNonNull(min), null, Objects.requireNonNull(max));
    }

    /** The lower bound; only for a range of constants. */
    public T min() {
        return constant(min, minSetting);
    }

    /** The upper bound; only for a range of constants. */
    public T max() {
        return constant(max, maxSetting);
    }

    private static <T> T constant(T value, Setting<T> setting) {
        if (setting != null) {
            throw new IllegalStateException("the bound is " + setting.property() + ", not a constant");
        }
        return value;
    }

    /** Whether {@code value} lies in a range of constants. */
    public boolean contains(T value) {
        return value != null && value.compareTo(min()) >= 0 && value.compareTo(max()) <= 0;
    }

    /** Whether {@code value} lies in the range, its bounds read from {@code options} (and checked first). */
    boolean contains(T value, CpuProfilerOptions options) {
        return value != null && value.compareTo(bound(min, minSetting, options)) >= 0
                && value.compareTo(bound(max, maxSetting, options)) <= 0;
    }

    private static <T> T bound(T value, Setting<T> setting, CpuProfilerOptions options) {
        if (setting == null) {
            return value;
        }
        setting.check(options);
        return setting.get(options);
    }

    /**
     * The range in the words of a validation message: {@code between PT1S and PT1H}, or with another setting as a
     * bound {@code at least profiler.cpu.sampling-interval (PT1S) and at most PT1H}.
     */
    String allowed(CpuProfilerOptions options) {
        if (minSetting == null && maxSetting == null) {
            return "between " + min + " and " + max;
        }
        return "at least " + named(min, minSetting, options) + " and at most " + named(max, maxSetting, options);
    }

    private static <T> String named(T value, Setting<T> setting, CpuProfilerOptions options) {
        return setting == null ? String.valueOf(value) : setting.property() + " (" + setting.get(options) + ")";
    }

    /**
     * The range for a reader, its constants written by {@code format}: {@code between 1s and 1h}, or
     * {@code at least profiler.cpu.sampling-interval and at most 1h}.
     */
    public String describe(Function<? super T, String> format) {
        if (minSetting == null && maxSetting == null) {
            return "between " + format.apply(min) + " and " + format.apply(max);
        }
        return "at least " + (minSetting == null ? format.apply(min) : minSetting.property()) + " and at most "
                + (maxSetting == null ? format.apply(max) : maxSetting.property());
    }
}
