package dev.cpuprofiler;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * One {@code profiler.cpu.*} setting, declared once in {@link CpuProfilerSettings}: its key, default, the values it
 * allows, its description and where it lives on {@link CpuProfilerOptions}. The options' defaults, copy and
 * validation, Spring's configuration metadata and the check of README's table all read it from here.
 *
 * @param <T> the type of the value on {@link CpuProfilerOptions} (boxed for primitives)
 */
public final class Setting<T> {

    /** One value an enumerated setting takes, as written in properties, and what it means. */
    public record Choice(String id, String description) {
    }

    /** A rule the value must follow, in the words of an error message and of the documentation. */
    private record Rule<T>(BiPredicate<T, CpuProfilerOptions> allows, Function<CpuProfilerOptions, String> allowed,
            String documented) {
    }

    private final String key;
    private final Class<T> type;
    private final T defaultValue;
    private final Function<CpuProfilerOptions, T> getter;
    private final BiConsumer<CpuProfilerOptions, T> setter;
    private final Function<T, String> text;
    private final List<Rule<T>> rules = new ArrayList<>();
    private final List<Choice> choices = new ArrayList<>();
    private Function<T, String> shown = String::valueOf;
    private String description;
    private String mirrors;
    private String bareNumber;
    private Range<?> range;

    Setting(String key, Class<T> type, T defaultValue, Function<CpuProfilerOptions, T> getter,
            BiConsumer<CpuProfilerOptions, T> setter, Function<T, String> text) {
        this.key = Objects.requireNonNull(key);
        this.type = Objects.requireNonNull(type);
        this.defaultValue = defaultValue;
        this.getter = Objects.requireNonNull(getter);
        this.setter = Objects.requireNonNull(setter);
        this.text = Objects.requireNonNull(text);
    }

    // Declaration, used only while CpuProfilerSettings builds its constants.

    Setting<T> description(String description) {
        this.description = description;
        return this;
    }

    /** The original profiler's name for this setting. */
    Setting<T> mirrors(String originalName) {
        this.mirrors = originalName;
        return this;
    }

    /** What a bare number in properties means, e.g. {@code seconds}. */
    Setting<T> bareNumber(String unit) {
        this.bareNumber = unit;
        return this;
    }

    /** How a value appears in an error message, when not {@link String#valueOf}. */
    Setting<T> shown(Function<T, String> shown) {
        this.shown = shown;
        return this;
    }

    /** The value must lie in {@code range}; the message says {@code must be between ...}. */
    <C extends Comparable<? super C>> Setting<T> within(Range<C> range, Function<? super C, String> format) {
        this.range = range;
        return rule((v, o) -> range.contains(castTo(v), o), o -> "must be " + range.allowed(o),
                range.describe(format));
    }

    /** A rule; {@code allowed} is the message's end ({@code must be ...}), {@code documented} its words in docs. */
    Setting<T> rule(BiPredicate<T, CpuProfilerOptions> allows, Function<CpuProfilerOptions, String> allowed,
            String documented) {
        rules.add(new Rule<>(allows, allowed, documented));
        return this;
    }

    /** The values it takes; anything else (only {@code null} can reach the options) is refused naming them. */
    Setting<T> choices(Choice... values) {
        choices.addAll(List.of(values));
        String ids = String.join(", ", choices.stream().map(Choice::id).toList());
        return rule((v, o) -> v != null, o -> "must be one of " + ids, "one of " + ids);
    }

    @SuppressWarnings("unchecked")
    private static <C> C castTo(Object value) {
        return (C) value;
    }

    // Reading.

    /** The key under {@code profiler.cpu.}, e.g. {@code stack-sampling-period}. */
    public String key() {
        return key;
    }

    /** The full property name, e.g. {@code profiler.cpu.stack-sampling-period}. */
    public String property() {
        return CpuProfilerOptions.PREFIX + key;
    }

    public Class<T> type() {
        return type;
    }

    public T defaultValue() {
        return defaultValue;
    }

    /** The default as written in properties ({@code 30s}, {@code 64MB}, {@code auto}), or null when unset. */
    public String defaultText() {
        return text(defaultValue);
    }

    /** A value as written in properties, or null for unset. */
    public String text(T value) {
        return value == null ? null : text.apply(value);
    }

    /**
     * The whole description: what it does, the original setting it mirrors, the values it allows and what a bare
     * number means.
     */
    public String description() {
        StringBuilder d = new StringBuilder(description);
        if (mirrors != null) {
            d.append(" Mirrors ").append(mirrors).append('.');
        }
        List<String> documented = rules.stream().map(Rule::documented).filter(Objects::nonNull).toList();
        if (!documented.isEmpty()) {
            d.append(" Must be ").append(String.join("; ", documented)).append('.');
        }
        if (bareNumber != null) {
            d.append(" A bare number means ").append(bareNumber).append('.');
        }
        return d.toString();
    }

    /** What a bare number in properties means ({@code seconds}, {@code milliseconds}, {@code megabytes}), or null. */
    public String bareNumber() {
        return bareNumber;
    }

    /** The original profiler's name for this setting, or null. */
    public String mirrors() {
        return mirrors;
    }

    /** The values an enumerated setting takes; empty for the others. */
    public List<Choice> choices() {
        return List.copyOf(choices);
    }

    /** The range declared with {@code within}, or null. */
    @SuppressWarnings("unchecked")
    public <C extends Comparable<? super C>> Range<C> range() {
        return (Range<C>) range;
    }

    public T get(CpuProfilerOptions options) {
        return getter.apply(options);
    }

    public void set(CpuProfilerOptions options, T value) {
        setter.accept(options, value);
    }

    /** Sets a value whose type was checked at run time only (binding by name): a wrong type fails here. */
    public void setChecked(CpuProfilerOptions options, Object value) {
        setter.accept(options, type.cast(value));
    }

    void reset(CpuProfilerOptions options) {
        setter.accept(options, defaultValue);
    }

    void copy(CpuProfilerOptions from, CpuProfilerOptions to) {
        setter.accept(to, getter.apply(from));
    }

    /**
     * Checks the value against every rule. A rule that compares with another setting checks that one first, so the
     * setting to fix is named.
     *
     * @throws InvalidOptionException naming the property, the value and what is allowed
     */
    public void check(CpuProfilerOptions options) {
        T value = get(options);
        for (Rule<T> rule : rules) {
            if (!rule.allows().test(value, options)) {
                throw new InvalidOptionException(property(), value == null ? null : shown.apply(value),
                        rule.allowed().apply(options));
            }
        }
    }

    @Override
    public String toString() {
        return property();
    }
}
